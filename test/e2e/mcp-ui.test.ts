// MCP servers in the web UI (issue 14), in a real Chromium against `parley serve`: a stdio server
// (@modelcontextprotocol/server-everything) added on Settings, MCP servers, started, its tools and a
// gate; one of its tools called by `fake/tools` with an approval in a chat; a project's own server
// waiting for trust; Disable and Remove; and axe-core at 320 px in light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { seriousViolations } from "../helpers/axe";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

describe("web UI: MCP servers", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  const projectQuery = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  async function openMcpPage(on: Page = page): Promise<void> {
    await on.goto(`${stack.url}/#/settings/mcp`);
    await on.getByRole("heading", { name: "MCP servers" }).waitFor();
  }

  const server = (name: string, on: Page = page) => on.getByRole("group", { name, exact: true });
  const statusOf = (name: string) => server(name).locator(".words");
  const waitForStatus = (name: string, words: string, timeout = 30_000) =>
    server(name).locator(".words", { hasText: words }).waitFor({ timeout });

  it("adds a stdio server (refusing a bad id at the form), starts it, lists its tools and saves a gate", async () => {
    await openMcpPage();
    await page.getByRole("link", { name: "MCP servers" }).waitFor();
    await page.getByRole("button", { name: "Add server" }).click();
    const form = page.getByRole("group", { name: "Add server" });
    await form.getByLabel("Id").fill("Bad Id");
    await form.getByLabel("Name").fill("Everything");
    assert.equal(await form.getByLabel("Transport").inputValue(), "stdio");
    await form.getByLabel("Command").fill(process.execPath);
    await form.getByLabel("Arguments").fill(`${EVERYTHING}\nstdio`);
    await form.getByLabel("Environment").fill("PARLEY_E2E_SECRET=e2e-secret-value");
    assert.ok(await form.getByRole("radio", { name: "App" }).isChecked(), "a new server goes to the app by default");
    await form.getByRole("button", { name: "Add server" }).click();
    await form
      .getByRole("alert")
      .filter({ hasText: "Id: lowercase letters, digits and -, 1 to 32 characters" })
      .waitFor();

    await form.getByLabel("Id").fill("everything");
    await form.getByRole("button", { name: "Add server" }).click();
    await server("Everything").waitFor();
    assert.equal(await form.count(), 0, "the form closes once saved");
    // An app server starts as soon as it is added (contract 7.3: app servers start with Parley).
    assert.notEqual(await statusOf("Everything").textContent(), "Not running");
    const app = await (await stack.api("GET", "/api/settings/app")).json();
    assert.deepEqual(
      app.mcpServers[0].env,
      { PARLEY_E2E_SECRET: "<secret>" },
      "the env value went to the secret store",
    );
    assert.deepEqual(app.mcpServers[0].args, [EVERYTHING, "stdio"]);

    await waitForStatus("Everything", "Ready");
    assert.ok(await server("Everything").getByRole("button", { name: "Restart" }).isVisible());
    await server("Everything")
      .getByText(/^Tools \(\d+\)$/)
      .click();
    const echoGate = page.getByRole("combobox", { name: "Gate for mcp__everything__echo" });
    assert.equal(await echoGate.inputValue(), "ask", "MCP tools ask by default");
    await page.getByRole("combobox", { name: "Gate for mcp__everything__get-sum" }).selectOption("off");
    await server("Everything").getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const project = await (await stack.api("GET", `/api/settings/project?${projectQuery()}`)).json();
    assert.equal(project.project.toolGates["mcp__everything__get-sum"], "off", "the gate is the project's");
    assert.equal(await page.getByRole("combobox", { name: "Gate for mcp__everything__get-sum" }).inputValue(), "off");

    // Edit shows the saved secret as the placeholder; saving it back keeps the value.
    await server("Everything").getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("group", { name: "Edit everything" });
    assert.equal(await edit.getByLabel("Environment").inputValue(), "PARLEY_E2E_SECRET=<secret>");
    assert.ok(await edit.getByLabel("Id").isDisabled(), "the id of a saved server stays");
    await edit.getByRole("button", { name: "Cancel" }).click();
    await screenshot(page, "mcp-01-ready");
  });

  it("says whether a stdio server runs sandboxed, and gives it the network from its form", async () => {
    const status = async () =>
      ((await (await stack.api("GET", `/api/mcp/servers?${projectQuery()}`)).json()) as any[]).find(
        (s) => s.id === "everything",
      );
    const before = await status();
    const says = before.sandboxed ? "Sandboxed" : `Not sandboxed: ${before.sandboxReason}`;
    await server("Everything").getByText(says, { exact: true }).waitFor();

    await server("Everything").getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("group", { name: "Edit everything" });
    const sandbox = edit.getByLabel("Sandbox");
    assert.equal(await sandbox.inputValue(), "inherit", "it follows the Sandbox settings until told otherwise");
    await sandbox.selectOption({ label: "Sandboxed, with the network" });
    await edit.getByRole("button", { name: "Save server" }).click();
    await edit.waitFor({ state: "detached" });
    const app = await (await stack.api("GET", "/api/settings/app")).json();
    assert.deepEqual(app.mcpServers[0].sandbox, { network: "on" });
    assert.deepEqual(app.mcpServers[0].env, { PARLEY_E2E_SECRET: "<secret>" }, "the secret stays");
    // A changed sandbox restarts the server, as any change of its entry does.
    await waitForStatus("Everything", "Ready");

    await server("Everything").getByRole("button", { name: "Edit" }).click();
    assert.equal(await edit.getByLabel("Sandbox").inputValue(), "network");
    await edit.getByLabel("Sandbox").selectOption("inherit");
    await edit.getByRole("button", { name: "Save server" }).click();
    await edit.waitFor({ state: "detached" });
    assert.equal((await (await stack.api("GET", "/api/settings/app")).json()).mcpServers[0].sandbox, undefined);
    await waitForStatus("Everything", "Ready");
  });

  it("calls the server's tool from a chat after the user allows it", async () => {
    await page.goto(`${stack.url}/#/`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/tools");
    await page.getByLabel("Message").fill('mcp: mcp__everything__echo {"message":"hi"}');
    await page.getByLabel("Message").press("Enter");
    // The card shows the server's name and the tool's, not the model's id for it (kept on hover).
    const card = page.getByRole("group", { name: "Everything › echo", exact: true });
    assert.equal(await card.locator(".tool").getAttribute("title"), "mcp__everything__echo");
    await page.getByRole("region", { name: "Waiting for you" }).getByRole("button", { name: "Allow" }).click();
    await page.locator(".message.assistant", { hasText: "Tool said: Echo: hi" }).waitFor();
    await page.getByRole("button", { name: "Send" }).waitFor();
    assert.equal(await card.locator(".status").textContent(), "done");
    await screenshot(page, "mcp-02-chat");
  });

  it("asks to trust a project's own server: Not now hides the question, Trust this project starts it", async () => {
    const file = path.join(stack.projectDir, ".app.json");
    const settings = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
    fs.writeFileSync(
      file,
      JSON.stringify({
        ...settings,
        mcpServers: [
          {
            id: "repo",
            name: "Repo server",
            transport: "stdio",
            command: process.execPath,
            args: [EVERYTHING, "stdio"],
          },
        ],
      }),
    );
    const trust = page.getByRole("region", { name: "Trust this project" });
    await page.goto(`${stack.url}/#/`);
    // "own … wait for your trust", or "changed since you trusted it" when Parley's earlier writes left a trust of nothing.
    const waiting = /This project's (own )?MCP servers.* wait for your trust/;
    await trust.getByText(waiting).waitFor();
    assert.ok(await trust.getByRole("button", { name: "Trust this project" }).isVisible(), "the Chats page asks too");
    await openMcpPage();
    await trust.getByText(waiting).waitFor();
    assert.match((await trust.textContent())!, /repo: runs .*server-everything.*stdio/s);
    assert.ok(
      await trust.getByRole("link", { name: "review everything it brings on This project" }).isVisible(),
      "trust covers more than the servers",
    );
    assert.equal(await statusOf("Repo server").textContent(), "Waiting for you to trust this project");
    assert.equal(
      await server("Repo server").getByRole("button", { name: "Start" }).count(),
      0,
      "no Start before trust",
    );
    await screenshot(page, "mcp-03-trust");
    assert.deepEqual(await seriousViolations(page), [], "the trust question");
    await trust.getByRole("button", { name: "Not now" }).click();
    assert.equal(await trust.count(), 0);
    await page.reload();
    await server("Repo server").waitFor();
    assert.equal(await trust.count(), 0, "Not now holds for this session");
    const statusRead = page.waitForResponse((r) => /\/api\/projects\/[^/]+\/trust$/.test(new URL(r.url()).pathname));
    await page.goto(`${stack.url}/#/`);
    await statusRead;
    await page.getByRole("heading", { name: "Chats" }).waitFor();
    assert.equal(await trust.count(), 0, "and on the Chats page");
    await openMcpPage();

    await page.evaluate(() => sessionStorage.clear());
    await page.reload();
    await trust.getByRole("button", { name: "Trust this project" }).click();
    await waitForStatus("Repo server", "Ready");
    assert.equal(await trust.count(), 0);
  });

  it("is readable at 320 px and has no serious axe violations, light and dark", async () => {
    await checkNarrowInBothThemes(ui!.browser, "mcp", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await narrow.getByRole("heading", { name: "Chats" }).waitFor();
      await openMcpPage(narrow);
      await server("Everything", narrow).locator(".words", { hasText: "Ready" }).waitFor();
      await server("Everything", narrow)
        .getByText(/^Tools \(\d+\)$/)
        .click();
      const stderr = server("Everything", narrow).getByText("Server output (stderr)");
      if (await stderr.count()) await stderr.click();
      await narrow.getByRole("button", { name: "Add server" }).click();
      await narrow.getByRole("group", { name: "Add server" }).getByLabel("Id").waitFor();
    });
  });

  it("disables, enables and removes a server (Remove asks first)", async () => {
    await openMcpPage();
    await server("Everything").getByRole("button", { name: "Disable" }).click();
    await waitForStatus("Everything", "Disabled");
    assert.equal((await (await stack.api("GET", "/api/settings/app")).json()).mcpServers[0].enabled, false);
    await server("Everything").getByRole("button", { name: "Enable" }).click();
    await server("Everything").getByRole("button", { name: "Disable" }).waitFor();

    // A server that cannot start says so, with the reason.
    await stack.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "broken", transport: "stdio", command: path.join(stack.projectDir, "no-such-command") }],
    });
    await server("broken").getByRole("button", { name: "Start" }).click();
    await waitForStatus("broken", "Failed");
    assert.match((await server("broken").locator(".last-error").textContent())!, /^Last error: .+/);
    await server("broken").screenshot({ path: path.resolve("test-results/screenshots/mcp-04-error.png") });

    await server("Repo server").getByRole("button", { name: "Remove" }).click();
    const confirm = page.getByRole("group", { name: "Remove Repo server?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await server("Repo server").count(), 1, "Cancel keeps it");
    await server("Repo server").getByRole("button", { name: "Remove" }).click();
    await confirm.getByRole("button", { name: "Remove server" }).click();
    await server("Repo server").waitFor({ state: "detached" });
    assert.equal(JSON.parse(fs.readFileSync(path.join(stack.projectDir, ".app.json"), "utf8")).mcpServers.length, 0);
  });
});
