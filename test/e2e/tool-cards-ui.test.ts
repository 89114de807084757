// Tools and the agent loop in the web UI (issue 13), in a real Chromium against `parley serve` and
// the fake gateway's `fake/tools` model: approvals, denial, a file edit's diff and its revert,
// ask_user, the task list, the cards after a reload, and axe-core at 320 px in light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { seriousViolations } from "../helpers/axe";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";

describe("web UI: tool cards and the agent loop", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let toolsChatUrl = "";
  const settingsQuery = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  async function newToolsChat(): Promise<void> {
    await page.goto(`${stack.url}/#/`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/tools");
  }

  async function say(text: string): Promise<void> {
    const box = page.getByRole("combobox", { name: "Message" });
    await box.fill(text);
    await box.press("Enter");
  }

  const card = (name: string) => page.getByRole("group", { name, exact: true });
  // A waiting call is answered in the region pinned above the composer; its card says it waits.
  const waiting = () => page.getByRole("region", { name: "Waiting for you" });
  const turnEnded = () => page.getByRole("button", { name: "Send" }).waitFor();
  const status = (group: Locator) => group.locator(".status");

  it("asks before a shell call, keeps Stop usable while waiting, and on Allow runs it and answers with its output", async () => {
    await newToolsChat();
    toolsChatUrl = page.url();
    await say("shell: echo hello-from-shell");
    const shell = card("shell");
    await waiting().getByRole("button", { name: "Allow" }).waitFor();
    assert.equal(await status(shell).textContent(), "waiting for you");
    assert.match((await shell.locator(".summary").textContent())!, /echo hello-from-shell/);
    assert.ok(
      await page.getByRole("button", { name: "Stop" }).isVisible(),
      "the composer offers Stop while the turn waits",
    );
    await screenshot(page, "tools-01-approval");
    assert.deepEqual(await seriousViolations(page), [], "an approval waiting above the composer");
    await waiting().getByRole("button", { name: "Allow" }).click();
    await page
      .locator(".message.assistant", { hasText: "Tool said:" })
      .filter({ hasText: "hello-from-shell" })
      .waitFor();
    await turnEnded();
    assert.equal(await status(card("shell")).textContent(), "done");
    const toggle = card("shell").getByRole("button", { expanded: false });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await card("shell").getByRole("button", { expanded: true }).waitFor();
    assert.match((await card("shell").getByLabel("Output").textContent())!, /hello-from-shell\n\[exit code 0\]/);
    assert.match((await card("shell").getByLabel("Arguments").textContent())!, /"cmd": "echo hello-from-shell"/);
  });

  it("denies a call: nothing runs, the card says denied, and the model is told", async () => {
    await say("shell: touch denied-marker");
    await waiting().getByRole("button", { name: "Deny" }).click();
    await page.locator(".message.assistant", { hasText: "Tool said: The user denied this call." }).waitFor();
    await turnEnded();
    assert.equal(await status(card("shell").last()).textContent(), "denied");
    assert.ok(!fs.existsSync(path.join(stack.projectDir, "denied-marker")));
  });

  it("shows a file edit's diff, remembers Always allow, and reverts the turn (with Revert anyway after a change by hand)", async () => {
    const file = path.join(stack.projectDir, "notes.txt");
    fs.writeFileSync(file, "alpha beta\n");
    await say("edit: notes.txt beta => gamma");
    const edit = card("file notes.txt");
    await waiting().getByRole("checkbox", { name: "Always allow in this project" }).check();
    await waiting().getByRole("button", { name: "Allow" }).click();
    await turnEnded();
    assert.equal(fs.readFileSync(file, "utf8"), "alpha gamma\n");
    const settings = await (await stack.api("GET", `/api/settings/project?${settingsQuery()}`)).json();
    assert.equal(settings.project.toolGates.file, "allow", "Always allow set the project's gate");
    assert.match((await edit.locator(".stat").textContent())!, /\+1 −1/);
    await edit.getByRole("button", { expanded: false }).click();
    const diff = edit.getByLabel("Changes to notes.txt");
    assert.equal(await diff.locator("del").textContent(), "-alpha beta");
    assert.equal(await diff.locator("ins").textContent(), "+alpha gamma");
    await screenshot(page, "tools-02-diff");

    await page.getByRole("button", { name: "Revert changes" }).click();
    await page.getByRole("status").filter({ hasText: "Restored notes.txt." }).waitFor();
    assert.equal(fs.readFileSync(file, "utf8"), "alpha beta\n");

    // A second edit (no question now), then the file changes by hand: Revert names it first.
    await say("edit: notes.txt alpha => omega");
    await page.getByRole("button", { name: "Revert changes" }).waitFor();
    assert.equal(fs.readFileSync(file, "utf8"), "omega beta\n");
    fs.writeFileSync(file, "changed by hand\n");
    await page.getByRole("button", { name: "Revert changes" }).click();
    const conflict = page.getByRole("alert").filter({ hasText: "These files changed since this turn:" });
    await conflict.getByText("notes.txt").waitFor();
    assert.equal(fs.readFileSync(file, "utf8"), "changed by hand\n", "nothing reverted before Revert anyway");
    await conflict.getByRole("button", { name: "Revert anyway" }).click();
    // The first revert's status says the same: wait for a second one, not for the one already there.
    await page.getByRole("status").filter({ hasText: "Restored notes.txt." }).nth(1).waitFor();
    assert.equal(fs.readFileSync(file, "utf8"), "alpha beta\n");
  });

  it("answers ask_user by a click on a choice, and by a typed answer", async () => {
    await say("ask: Shall I proceed?");
    const ask = card("ask_user");
    await waiting().locator(".question", { hasText: "Shall I proceed?" }).waitFor();
    await waiting().getByRole("button", { name: "yes" }).click();
    await page.locator(".message.assistant", { hasText: "Tool said: yes" }).waitFor();
    await turnEnded();
    assert.equal(await status(ask).textContent(), "done");

    await say("ask: Which colour?");
    await waiting().locator(".question", { hasText: "Which colour?" }).waitFor();
    await waiting().getByLabel("Your answer").fill("teal, please");
    await waiting().getByRole("button", { name: "Send answer" }).click();
    await page.locator(".message.assistant", { hasText: "Tool said: teal, please" }).waitFor();
    await turnEnded();
  });

  it("shows the same cards after a reload", async () => {
    await page.goto(toolsChatUrl);
    await page.reload();
    await card("file notes.txt").first().waitFor();
    assert.deepEqual(await card("shell").locator(".status").allTextContents(), ["done", "denied"]);
    assert.deepEqual(await card("file notes.txt").locator(".status").allTextContents(), ["done", "done"]);
    assert.deepEqual(await card("ask_user").locator(".status").allTextContents(), ["done", "done"]);
    // Both turns were reverted: they say so after the reload (issue 37 item 6), with no button to do it again.
    assert.equal(await page.getByRole("button", { name: "Revert changes" }).count(), 0);
    assert.equal(await page.getByText("These changes were reverted.").count(), 2);
    await card("file notes.txt").first().getByRole("button", { expanded: false }).click();
    assert.equal(
      await card("file notes.txt").first().getByLabel("Changes to notes.txt").locator("ins").textContent(),
      "+alpha gamma",
    );
    assert.equal(await page.getByRole("button", { name: "Open diff" }).count(), 0, "no editor diff in a browser");
  });

  it("pins the task list above the composer while the turn runs", async () => {
    // report_progress asks, so the turn waits right after the task list came.
    await stack.api("PATCH", `/api/settings/project?${settingsQuery()}`, { toolGates: { report_progress: "ask" } });
    await newToolsChat();
    await say("tasks: write the code, test it");
    const tasks = page.getByRole("region", { name: "Tasks" });
    await tasks.waitFor();
    const items = (await tasks.getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
    assert.deepEqual(items, ["◐ write the code in progress", "☐ test it to do"]);
    await screenshot(page, "tools-03-tasks");
    await waiting().getByRole("button", { name: "Allow" }).click();
    await page.locator(".message.assistant", { hasText: "Tool said: ok" }).waitFor();
    await turnEnded();
    assert.equal(await tasks.count(), 0, "the list goes with the turn");
  });

  it("stops a turn that waits for an approval, and the card stops waiting", async () => {
    await say("shell: echo never-run");
    const shell = card("shell");
    await waiting().getByRole("button", { name: "Allow" }).waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await turnEnded();
    assert.equal(await page.getByRole("button", { name: "Allow" }).count(), 0);
    assert.equal(await waiting().count(), 0, "nothing waits any more");
    assert.notEqual(await status(shell).textContent(), "waiting for you");
  });

  it("is readable at 320 px and has no serious axe violations with a card expanded, light and dark", async () => {
    await checkNarrowInBothThemes(ui!.browser, "tools", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await narrow.getByRole("heading", { name: "Chats" }).waitFor();
      await narrow.goto(toolsChatUrl);
      await narrow.getByRole("group", { name: "file notes.txt", exact: true }).first().waitFor();
      // The chat opens at its end and renders what is in view: its first cards are at the top.
      await narrow.locator("ol.messages").evaluate((list) => (list.scrollTop = 0));
      const edit = narrow.getByRole("group", { name: "file notes.txt", exact: true }).first();
      await edit.getByRole("button", { expanded: false }).click();
      await edit.getByLabel("Changes to notes.txt").waitFor();
      await narrow
        .getByRole("group", { name: "shell", exact: true })
        .first()
        .getByRole("button", { expanded: false })
        .click();
    });
  });
});
