// Direct runs from the composer in the web UI (issue 15), in a real Chromium against `parley serve`
// and the fake gateway: `@reviewer task` runs the agent with its own calls inside its card, `@shell
// cmd` dispatches with its approval pinned above the composer and its output open, Stop ends a waiting run, refusals keep the text,
// the cards persist after a reload, Settings, Agents and the chat's Agent card, axe at 320 px, and
// after a reload whose project list is slow the chat shows once and a run sent at once finds its project.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";

describe("web UI: direct runs of agents and tools from the composer", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let chatUrl = "";
  const query = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;
  const gates = (toolGates: Record<string, string>) =>
    stack.api("PATCH", `/api/settings/project?${query()}`, { toolGates });

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    fs.writeFileSync(
      path.join(stack.projectDir, ".app.json"),
      JSON.stringify({
        agents: [{ name: "reviewer", description: "Reviews", model: "fake/tools" }],
        toolGates: { shell: "allow" },
      }),
    );
    // The repository's `allow` counts once the user trusts the project (contract 7.1).
    const projectId = (await (await stack.api("GET", "/api/projects")).json())[0].id;
    assert.equal((await stack.api("POST", `/api/projects/${projectId}/trust`, { trusted: true })).status, 200);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  async function say(text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
  }

  const card = (name: string) => page.getByRole("group", { name, exact: true });
  /** A waiting call is answered in the region pinned above the composer. */
  const waiting = () => page.getByRole("region", { name: "Waiting for you" });
  const turnEnded = () => page.getByRole("button", { name: "Send" }).waitFor();
  /** The shell cards of the transcript itself, not those inside a subagent's card. */
  const topShells = () => page.locator(".tool-item > .tool-card[aria-label='shell']");
  const chatId = () => chatUrl.slice(chatUrl.lastIndexOf("/") + 1);

  it("runs an agent with @reviewer: a subagent card holding the agent's shell call, then its answer", async () => {
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/echo");
    chatUrl = page.url();
    await say("@reviewer shell: echo from-agent");
    const sub = card("subagent reviewer");
    await sub.waitFor();
    await page.locator(".message.assistant", { hasText: "Tool said:" }).filter({ hasText: "from-agent" }).waitFor();
    await turnEnded();
    const inner = sub.getByRole("group", { name: "shell", exact: true });
    assert.equal(await inner.locator(".status").textContent(), "done");
    assert.match((await inner.locator(".summary").textContent())!, /echo from-agent/);
    assert.equal(await sub.locator(".status").first().textContent(), "done");
    assert.equal(
      await page.locator(".tool-item > .tool-card").count(),
      1,
      "the shell card is inside the subagent's, not beside it",
    );
    assert.equal(await page.getByLabel("Message").inputValue(), "", "the composer is cleared after a run");
    const stored = await (await stack.api("GET", `/api/chats/${chatId()}`)).json();
    assert.equal(stored.messages.filter((m: any) => m.role === "user").length, 0, "nothing went to the chat's model");
  });

  it("dispatches @shell directly: it asks (the gate is ask), Allow runs it, the output shows at once", async () => {
    await gates({ shell: "ask" });
    await say("@shell echo direct");
    const shell = topShells().last();
    await waiting().getByRole("button", { name: "Allow" }).waitFor();
    assert.equal(await shell.locator(".status").first().textContent(), "waiting for you");
    assert.ok(await page.getByRole("button", { name: "Stop" }).isVisible(), "Stop while the dispatch waits");
    await screenshot(page, "direct-01-approval");
    await waiting().getByRole("button", { name: "Allow" }).click();
    await turnEnded();
    const done = topShells().last();
    assert.equal(await done.locator(".status").textContent(), "done");
    // A direct run's result is what the user asked for: its card opens by itself.
    await done.getByRole("button", { expanded: true }).waitFor();
    assert.match((await done.getByLabel("Output").textContent())!, /^direct\n\[exit code 0\]/);
  });

  it("stops a dispatch that waits for its approval: the card stops waiting and no error shows", async () => {
    await say("@shell echo never-run");
    await waiting().getByRole("button", { name: "Allow" }).waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await turnEnded();
    assert.equal(await page.getByRole("button", { name: "Allow" }).count(), 0);
    assert.equal(await topShells().last().locator(".status").textContent(), "stopped");
    assert.equal(await page.locator(".direct-error").count(), 0);
  });

  it("explains a refused run with its way out and keeps the text in the composer", async () => {
    await gates({ shell: "off" });
    await say("@shell echo gated");
    const refusal = page.getByRole("alert").filter({ hasText: "403" });
    await refusal.waitFor();
    assert.match((await refusal.textContent())!, /toolGates/);
    assert.equal(await page.getByLabel("Message").inputValue(), "@shell echo gated", "the text is not lost");
    await gates({ shell: "allow" });
    await refusal.getByRole("button", { name: "Try again" }).click();
    await page.locator(".tool-card .summary", { hasText: "echo gated" }).waitFor();
    await turnEnded();
    assert.equal(await page.getByLabel("Message").inputValue(), "");

    await say("@mcp__none__sum a=1");
    const invalid = page.getByRole("alert").filter({ hasText: "400" });
    await invalid.waitFor();
    assert.equal(await page.getByLabel("Message").inputValue(), "@mcp__none__sum a=1");
    await invalid.getByRole("button", { name: "Send to the model instead" }).click();
    await page.locator(".message.user .bubble", { hasText: "@mcp__none__sum a=1" }).waitFor();
    await turnEnded();
    assert.equal(await page.getByLabel("Message").inputValue(), "");
  });

  it("shows the same cards after a reload", async () => {
    await page.goto(chatUrl);
    await page.reload();
    const sub = card("subagent reviewer");
    await sub.waitFor();
    assert.equal(await sub.getByRole("group", { name: "shell", exact: true }).locator(".status").textContent(), "done");
    assert.ok(
      await page.locator(".message.assistant", { hasText: "Tool said:" }).filter({ hasText: "from-agent" }).isVisible(),
    );
    const shells = topShells();
    assert.deepEqual(await shells.locator(".summary").allTextContents(), [
      "echo direct",
      "echo never-run",
      "echo gated",
    ]);
    assert.equal(await shells.first().locator(".status").textContent(), "done");
  });

  it("lists the agents in Settings, Agents, and saves the project's default agent", async () => {
    await page.goto(`${stack.url}/#/settings/agents`);
    await page.getByRole("heading", { name: "Agents" }).waitFor();
    const item = page.getByRole("listitem", { name: "Agent reviewer" });
    await item.waitFor();
    assert.match((await item.textContent())!, /Reviews/);
    assert.match((await item.textContent())!, /Model pin\s*fake\/tools/);
    assert.match((await item.textContent())!, /every project tool/);
    await page.getByLabel("Default agent").selectOption("reviewer");
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const settings = await (await stack.api("GET", `/api/settings/project?${query()}`)).json();
    assert.equal(settings.project.defaultAgent, "reviewer");
    assert.ok(settings.project.agents ?? true, "the agents stay in the file");
    await screenshot(page, "direct-02-agents-settings");
  });

  it("shows the chat's Agent card with the default and its model pin, and changes it for this chat", async () => {
    await page.goto(chatUrl);
    const agentCard = page.getByRole("region", { name: "Agent" });
    await agentCard.waitFor();
    await agentCard.getByText("Model pin: fake/tools").waitFor();
    assert.match(
      (await agentCard.getByLabel("Agent for this chat").locator("option:checked").textContent())!,
      /Project default \(reviewer\)/,
    );
    await agentCard.getByLabel("Agent for this chat").selectOption("reviewer");
    await agentCard.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const chat = await (await stack.api("GET", `/api/chats/${chatId()}`)).json();
    assert.equal(chat.agent, "reviewer");
  });

  it("is readable at 320 px with the cards, and has no serious axe violations, light and dark", async () => {
    await checkNarrowInBothThemes(ui!.browser, "direct", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await narrow.getByRole("heading", { name: "Chats" }).waitFor();
      await narrow.goto(chatUrl);
      const sub = narrow.getByRole("group", { name: "subagent reviewer", exact: true });
      await sub.getByRole("group", { name: "shell", exact: true }).waitFor();
      await sub.getByRole("button", { expanded: false }).first().click();
    });
  });

  it("after a reload whose project list is slow, shows the chat once (no flash of an empty one) and runs a dispatch sent at once", async () => {
    await page.goto(chatUrl);
    // The list takes its time (held back until the page is seen waiting for it): the chat waits for
    // it rather than showing, then being built again.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/projects", async (route) => {
      await held;
      await route.continue().catch(() => {});
    });
    const loading = page.locator("main").getByRole("status").filter({ hasText: "Loading…" });
    try {
      await page.reload();
      await loading.waitFor();
      const listCame = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/projects");
      release();
      await listCame;
      const first = page.locator(".tool-item > .tool-card").first();
      await first.waitFor();
      await first.evaluate((node) => node.setAttribute("data-probe", "kept"));
      // The list has been taken in: the views it held back are up.
      await loading.waitFor({ state: "detached" });
      assert.equal(
        await page.locator("[data-probe=kept]").count(),
        1,
        "the transcript shown first is still the one on screen",
      );
      await say("@reviewer shell: echo after-reload");
      await page.locator(".message.assistant", { hasText: "Tool said:" }).filter({ hasText: "after-reload" }).waitFor();
      await turnEnded();
      assert.equal(await page.getByRole("alert").count(), 0, "no refusal");
      assert.equal(await card("subagent reviewer").count(), 2, "the earlier one and this one");
    } finally {
      release();
      await page.unroute("**/api/projects");
    }
  });
});
