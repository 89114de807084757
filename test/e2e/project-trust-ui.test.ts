// A project's trust in the web UI (contract 7.1), in a real Chromium against `parley serve`: a
// repository whose `.app.json` loosens a gate, brings an action and an http MCP server. This project
// shows Not trusted and lists all three; the action refused from the composer leads there; Trust this
// project; an edit outside Parley lapses the trust and lists the change; Stop trusting; Trust and allow
// on a gate and on an approval; and axe-core at 320 px in light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";

const REPOSITORY_SETTINGS = {
  toolGates: { shell: "allow" },
  actions: [{ id: "deploy", label: "Deploy", run: { shell: "echo hi" } }],
  mcpServers: [{ id: "repo", transport: "http", url: "http://127.0.0.1:9/mcp" }],
};

describe("web UI: project trust", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let projectId = "";
  let chatUrl = "";
  const appJson = () => path.join(stack.projectDir, ".app.json");
  const q = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;
  const json = async (method: string, route: string, body?: unknown) => (await stack.api(method, route, body)).json();
  const trustState = () => json("GET", `/api/projects/${projectId}/trust`);
  const catalogGate = async (name: string) =>
    ((await json("GET", `/api/tools/catalog?${q()}`)) as { name: string; gate: string }[]).find((t) => t.name === name)
      ?.gate;

  const section = (on: Page = page) => on.getByRole("region", { name: "Project trust" });
  const stateWords = (on: Page = page) => section(on).locator(".state strong");
  const gate = (name: string, on: Page = page) => on.getByRole("combobox", { name: `Gate for ${name}`, exact: true });

  async function openProjectPage(on: Page = page): Promise<void> {
    await on.goto(`${stack.url}/#/settings/project`);
    await section(on).getByRole("heading", { name: "Project trust" }).waitFor();
  }
  /** The state in words, exactly ("Trusted" is not "Not trusted"). */
  async function waitForState(words: string, on: Page = page): Promise<void> {
    await stateWords(on)
      .filter({ hasText: new RegExp(`^${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) })
      .waitFor();
  }
  async function say(text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
  }

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    fs.writeFileSync(appJson(), JSON.stringify(REPOSITORY_SETTINGS, null, 2));
    projectId = (await json("GET", "/api/projects"))[0].id;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  it("shows Not trusted on This project, listing the loosened gate, the action's command and the MCP server's URL", async () => {
    const banner = page.getByRole("region", { name: "Trust this project" });
    await banner.getByText("MCP servers wait for your trust before they start or connect").waitFor();
    assert.match(
      (await banner.textContent())!,
      /repo: connects to http:\/\/127\.0\.0\.1:9\/mcp/,
      "the Chats page names the http server's URL",
    );

    await openProjectPage();
    await waitForState("Not trusted");
    const text = (await section().textContent())!;
    assert.match(text, /Tool gates it loosens\s*shell: allow/);
    assert.match(text, /Actions\s*deploy: Deploy: runs echo hi/);
    assert.match(text, /MCP servers\s*repo: connects to http:\/\/127\.0\.0\.1:9\/mcp/);
    assert.equal(await section().locator("code", { hasText: "echo hi" }).count(), 1, "the command shows as code");
    assert.ok(await section().getByRole("button", { name: "Trust this project" }).isVisible());
    assert.equal(await section().getByRole("button", { name: "Stop trusting" }).count(), 0);

    assert.equal(await gate("shell").inputValue(), "ask", "the repository's allow counts as ask");
    await page
      .getByRole("group", { name: "shell", exact: true })
      .getByText("This project says allow: counts as ask until you trust this project.")
      .waitFor();
    await screenshot(page, "trust-01-not-trusted");
  });

  it("refuses @deploy from the composer with a link that opens This project", async () => {
    await page.goto(`${stack.url}/#/`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/tools");
    chatUrl = page.url();
    // The @ popup opens on the mention; Escape closes it, so Enter sends the text as typed.
    await page.getByLabel("Message").fill("@deploy");
    await page.getByLabel("Message").press("Escape");
    await page.getByLabel("Message").press("Enter");
    const refusal = page.getByRole("alert").filter({ hasText: "403" });
    await refusal.waitFor();
    assert.match((await refusal.textContent())!, /not trusted/);
    assert.equal(await page.getByLabel("Message").inputValue(), "@deploy", "the text is kept");
    await screenshot(page, "trust-02-refused-action");
    await refusal.getByRole("link", { name: "Review trust on This project" }).click();
    await waitForState("Not trusted");
    assert.match(page.url(), /#\/settings\/project$/);
  });

  it("trusts the project: Trusted, and the repository's allow counts", async () => {
    await section().getByRole("button", { name: "Trust this project" }).click();
    await waitForState("Trusted");
    assert.equal((await trustState()).trusted, true);
    await page.waitForFunction(
      () =>
        (document.querySelector('select[aria-label="Gate for shell"]') as HTMLSelectElement | null)?.value === "allow",
    );
    assert.equal(await page.getByText("counts as ask until you trust this project").count(), 0);
    assert.ok(await section().getByRole("button", { name: "Stop trusting" }).isVisible());
    assert.equal(await section().getByRole("button", { name: "Trust this project" }).count(), 0);
    assert.equal(await catalogGate("shell"), "allow");
  });

  it("shows a lapse and what changed after an edit outside Parley, and stops trusting", async () => {
    const settings = JSON.parse(fs.readFileSync(appJson(), "utf8"));
    settings.actions.push({ id: "lint", label: "Lint", run: { shell: "npm run lint" } });
    fs.writeFileSync(appJson(), JSON.stringify(settings, null, 2));
    await page.reload();
    await waitForState("Trust lapsed: the repository changed what you trusted");
    const changed = section().getByRole("list").first();
    assert.match((await changed.textContent())!, /Added action lint: Lint: runs npm run lint/);
    assert.equal(await gate("shell").inputValue(), "ask", "a lapsed trust counts as none");
    await screenshot(page, "trust-03-lapsed");

    await section().getByRole("button", { name: "Trust this project" }).click();
    await waitForState("Trusted");
    assert.equal(await section().getByText("Changed since you trusted it").count(), 0);
    await section().getByRole("button", { name: "Stop trusting" }).click();
    await waitForState("Not trusted");
    assert.equal((await trustState()).trusted, false);
    assert.equal(await catalogGate("shell"), "ask");
  });

  it("asks before an allow in the untrusted project: Cancel keeps the gate, Trust and allow trusts and sets it", async () => {
    await openProjectPage();
    await waitForState("Not trusted");
    assert.equal(await gate("file").inputValue(), "ask");
    await gate("file").selectOption("allow");
    const ask = page.getByRole("group", { name: "Allow file?" });
    await ask.getByRole("button", { name: "Trust and allow" }).waitFor();
    assert.equal(await gate("file").inputValue(), "ask", "nothing is set while the question is open");
    await ask.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await ask.count(), 0);
    assert.equal(JSON.parse(fs.readFileSync(appJson(), "utf8")).toolGates.file, undefined);

    await gate("file").selectOption("allow");
    await screenshot(page, "trust-04-trust-and-allow");
    await ask.getByRole("button", { name: "Trust and allow" }).click();
    await waitForState("Trusted");
    await page.getByRole("region", { name: "Tool gates" }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await page.waitForFunction(
      () =>
        (document.querySelector('select[aria-label="Gate for file"]') as HTMLSelectElement | null)?.value === "allow",
    );
    assert.equal(JSON.parse(fs.readFileSync(appJson(), "utf8")).toolGates.file, "allow");
    assert.equal((await trustState()).trusted, true, "the gate Parley wrote keeps the trust");
    assert.equal(await catalogGate("file"), "allow");
  });

  it("turns Always allow into Trust and allow on an approval in the untrusted project", async () => {
    assert.equal((await stack.api("POST", `/api/projects/${projectId}/trust`, { trusted: false })).status, 200);
    await page.goto(chatUrl);
    // The refused run sent nothing, so the chat has no model of its own yet.
    await chooseModel(page, "fake/tools");
    await say("@shell echo trusted-now");
    // The approval is answered above the composer.
    const shell = page.getByRole("region", { name: "Waiting for you" });
    await shell.getByRole("button", { name: "Trust and allow" }).waitFor();
    assert.ok(await shell.getByRole("button", { name: "Allow", exact: true }).isVisible(), "plain Allow stays");
    assert.equal(
      await shell.getByLabel("Always allow in this project").count(),
      0,
      "no remembered allow without trust",
    );
    await screenshot(page, "trust-05-approval");
    await shell.getByRole("button", { name: "Trust and allow" }).click();
    await page.getByRole("button", { name: "Send" }).waitFor();
    assert.equal(
      await page.locator(".tool-item > .tool-card[aria-label='shell']").last().locator(".status").first().textContent(),
      "done",
    );
    assert.equal((await trustState()).trusted, true);
    assert.equal(JSON.parse(fs.readFileSync(appJson(), "utf8")).toolGates.shell, "allow");
  });

  it("is readable at 320 px with no serious axe violations, light and dark", async () => {
    assert.equal((await stack.api("POST", `/api/projects/${projectId}/trust`, { trusted: false })).status, 200);
    await checkNarrowInBothThemes(ui!.browser, "trust-project", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await narrow.getByRole("heading", { name: "Chats" }).waitFor();
      await narrow
        .getByRole("region", { name: "Trust this project" })
        .getByRole("button", { name: "Trust this project" })
        .waitFor();
      await openProjectPage(narrow);
      await waitForState("Not trusted", narrow);
      await gate("file", narrow).selectOption("allow");
      await narrow
        .getByRole("group", { name: "Allow file?" })
        .getByRole("button", { name: "Trust and allow" })
        .waitFor();
    });
    await checkNarrowInBothThemes(ui!.browser, "trust-chats", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await narrow
        .getByRole("region", { name: "Trust this project" })
        .getByRole("button", { name: "Trust this project" })
        .waitFor();
    });
  });
});
