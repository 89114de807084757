// The composer's @ popup in a real Chromium against `parley serve` (issue 17): one test per
// composer rule 1 to 17 of the spec, each named by its rule, on a project seeded on disk and through
// the real routes (files for every ranking tier, tags, agents, a custom action, the MCP "everything"
// server). Refresh, referenced files, dispatch and axe are in mention-popup-flows-ui.test.ts.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { popup, seedProject, startEverything } from "../helpers/mention-fixture";
import { until } from "../helpers/poll";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";

describe("web UI: the @ popup, rule by rule", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let p: ReturnType<typeof popup>;
  const chip = (name: string) => p.filter.getByRole("button", { name, exact: true });
  const turnEnded = () => page.getByRole("button", { name: "Send" }).waitFor();
  /** Reloads the chat and waits until it is shown with its project (the view is keyed on both). */
  async function reloadChat(): Promise<void> {
    await page.reload();
    await page.locator(".project-name", { hasText: "my-project" }).waitFor();
    await page.locator(".message.assistant", { hasText: "You said: hello" }).waitFor();
  }

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    await seedProject(stack);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/echo");
    p = popup(page);
    // One message, so the chat keeps its model across the reloads below.
    await p.box.fill("hello");
    await p.box.press("Enter");
    await page.locator(".message.assistant", { hasText: "You said: hello" }).waitFor();
  });

  after(() => ui?.stop());

  it("rule 1: typing @ anywhere in the composer opens the popup above it", async () => {
    assert.equal(await p.box.getAttribute("aria-expanded"), "false");
    await p.type("Please look at @");
    await p.listbox.waitFor();
    assert.equal(await p.box.getAttribute("aria-expanded"), "true");
    assert.equal(await p.box.getAttribute("aria-controls"), await p.listbox.getAttribute("id"));
    const [list, box] = [(await p.listbox.boundingBox())!, (await p.box.boundingBox())!];
    assert.ok(
      list.y + list.height <= box.y + 1,
      `the popup (bottom ${list.y + list.height}) is above the box (top ${box.y})`,
    );
    await screenshot(page, "mentions-01-open");
    await p.box.fill("");
    await until(
      () => p.listbox.count(),
      (n) => n === 0,
      "the popup closes when the @ goes",
    );
  });

  it("rule 2: files come tagged first, each with its name and folder (Project root at the root); a pick inserts @<relPath>", async () => {
    await p.type("@");
    await p.waitLabels((l) => l.length > 0, "rows for an empty query");
    const files = (await p.rows()).filter((r) => r[0] === "Files");
    assert.deepEqual(
      files.slice(0, 2),
      [
        ["Files", "guide.md", "docs"],
        ["Files", "plain.md", "notes"],
      ],
      "the tagged files lead, in their .app.json order",
    );
    await p.type("@READ");
    await p.waitLabels((l) => l[0] === "README.md", "README.md for @READ");
    assert.deepEqual((await p.rows())[0], ["File", "README.md", "Project root"]);
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "@README.md ");
  });

  it("rule 3: agents are listed with the pinned model as subtitle when set", async () => {
    await p.type("@");
    await chip("Agents").click();
    await p.waitLabels((l) => l.includes("reviewer"), "the agents");
    const rows = await p.rows();
    assert.deepEqual(
      rows.find((r) => r[1] === "reviewer"),
      ["", "reviewer", "fake/tools"],
    );
    assert.deepEqual(
      rows.find((r) => r[1] === "agent-one"),
      ["", "agent-one", "Agent number one"],
    );
  });

  it("rule 4: actions are the saved custom actions, with label and description and nothing about how they run", async () => {
    await p.type("@");
    await chip("Actions").click();
    await p.waitLabels((l) => l.length === 1 && l[0] === "Deploy site", "the one custom action");
    const text = (await p.listbox.textContent())!;
    assert.match(text, /Deploy site\s*Publishes the site/);
    assert.doesNotMatch(text, /shell|echo|CLI|MCP/i);
  });

  it("rule 5: tools are the native tools (shell, file tools, ask_user, task)", async () => {
    await p.type("@");
    await chip("Tools").click();
    await p.waitLabels((l) => l.includes("shell"), "the native tools");
    const labels = await p.labels();
    for (const name of ["shell", "file", "ask_user", "task"]) assert.ok(labels.includes(name), `${name} in ${labels}`);
    assert.ok(!labels.some((l) => l.startsWith("mcp__")), "no MCP tool among the native ones");
  });

  it("rule 7: the Model row is the chat's current model", async () => {
    await p.type("@");
    await chip("Model").click();
    await p.waitLabels((l) => l.length === 1, "one model row");
    assert.deepEqual((await p.rows())[0], ["", "fake/echo", "Current model"]);
  });

  it("rule 8: search is case-insensitive against the name, the full relative path and the tags", async () => {
    await p.type("@BUTTON");
    await p.waitLabels(
      (l) => l.includes("Button.svelte") && l.includes("button-helpers.ts"),
      "both button files for @BUTTON",
    );
    await p.type("@Docs/Gu");
    await p.waitLabels((l) => l[0] === "guide.md", "guide.md by its path");
    await p.type("@HANDBOOK");
    await p.waitLabels((l) => l[0] === "guide.md", "guide.md by its tag");
  });

  it("rule 9: ranking goes exact name, name prefix, word start, name substring, path prefix, path substring, other text, fuzzy", async () => {
    await p.type("@view");
    const expected = [
      "view",
      "viewer.ts",
      "chat-view.ts",
      "preview.ts",
      "index.ts",
      "panel.ts",
      "plain.md",
      "very-important-entry-wrapper.ts",
    ];
    await p.waitLabels((l) => l.length >= expected.length, "the view files");
    const files = (await p.rows()).filter((r) => r[0] === "File").map((r) => r[1]);
    assert.deepEqual(files, expected);
    await screenshot(page, "mentions-09-ranking");
  });

  it("rule 10: matching files come first, ahead of agents, actions, tools, MCP tools and the model", async () => {
    await p.type("@agent-one");
    await p.waitLabels((l) => l.includes("agent-one") && l.includes("agent-one-notes.md"), "the file and the agent");
    const rows = await p.rows();
    const kinds = rows.map((r) => r[0]);
    const firstOther = kinds.findIndex((k) => k !== "File");
    assert.deepEqual(rows[0]!.slice(0, 2), ["File", "agent-one-notes.md"]);
    assert.deepEqual(
      rows[firstOther]!.slice(0, 2),
      ["Agent", "agent-one"],
      "the agent (an exact name) only after every matching file",
    );
    assert.ok(kinds.lastIndexOf("File") < firstOther, `files first: ${kinds}`);
  });

  it("rule 11: the matched characters of each name are highlighted in <mark>", async () => {
    await p.type("@Butt");
    await p.waitLabels((l) => l[0] === "Button.svelte", "Button.svelte first");
    assert.deepEqual(await p.options.first().locator("mark").allTextContents(), ["Butt"]);
    await p.type("@vwr");
    await p.waitLabels((l) => l.includes("viewer.ts"), "a fuzzy match");
    const viewer = p.options.filter({ has: page.locator(".label", { hasText: /^viewer\.ts$/ }) });
    assert.equal((await viewer.locator("mark").allTextContents()).join(""), "vwr");
  });

  it("rule 12: a query with no matches says `No matches for @…` and the popup stays open", async () => {
    await p.type("@zzqx");
    await p.listbox.getByText("No matches for @zzqx").waitFor();
    assert.equal(await p.box.getAttribute("aria-expanded"), "true");
    assert.ok(await p.listbox.isVisible());
    await page.getByRole("status").filter({ hasText: "No matches for @zzqx" }).waitFor();
  });

  it("rule 13: the Filter chips show one category uncapped, toggle back to All, stay for an empty category, hide while searching, and reset on a fresh @", async () => {
    await p.type("@");
    await p.filter.waitFor();
    assert.deepEqual(
      await p.filter
        .getByRole("button")
        .allTextContents()
        .then((t) => t.map((s) => s.trim())),
      ["Files", "Agents", "Actions", "Tools", "MCP", "Model"],
    );
    await p.waitLabels((l) => l.length > 0, "the All view");
    const all = await p.rows();
    assert.equal(all.filter((r) => r[0] === "Agents").length, 4, "4 per category in the All view");
    assert.equal(all.filter((r) => r[0] === "Files").length, 4);

    await chip("Agents").click();
    assert.equal(await chip("Agents").getAttribute("aria-pressed"), "true");
    await p.waitLabels((l) => l.length === 6, "every agent, uncapped");
    assert.ok(await p.box.evaluate((t) => t === document.activeElement), "the focus stays in the box");
    await chip("Agents").click();
    assert.equal(await chip("Agents").getAttribute("aria-pressed"), "false");
    await until(
      () => p.rows(),
      (rows) => rows.filter((r) => r[0] === "Agents").length === 4,
      "back to All",
    );

    // No MCP server yet: the category is empty and the bar stays.
    await chip("MCP").click();
    await p.listbox.getByText("No MCP in this project").waitFor();
    assert.ok(await p.filter.isVisible());

    await p.box.pressSequentially("agent-");
    await until(
      () => p.filter.count(),
      (n) => n === 0,
      "the bar hides while searching",
    );
    await until(
      () => p.rows(),
      (rows) => rows.filter((r) => r[0] === "Agent").length === 5,
      "the cap is dropped while searching",
    );

    await p.box.press("Escape");
    await p.box.press("End");
    await p.box.pressSequentially(" @");
    await p.filter.waitFor();
    assert.equal(await p.filter.locator("[aria-pressed=true]").count(), 0, "a fresh @ is back at All");
  });

  it("rule 14: Down and Up wrap, Enter and Tab select, Escape dismisses (also with no matches), a click outside dismisses", async () => {
    await p.type("@view");
    await p.waitLabels((l) => l[0] === "view", "the view rows");
    const count = await p.options.count();
    const activeLabel = async () => {
      const id = await p.box.getAttribute("aria-activedescendant");
      return page.locator(`[id="${id}"]`).locator(".label").textContent();
    };
    assert.equal(await activeLabel(), "view");
    assert.equal(await p.options.first().getAttribute("aria-selected"), "true");
    await p.box.press("ArrowDown");
    assert.equal(await activeLabel(), "viewer.ts");
    assert.equal(await p.options.nth(1).getAttribute("aria-selected"), "true");
    await p.box.press("ArrowUp");
    await p.box.press("ArrowUp");
    assert.equal(
      await p.box.getAttribute("aria-activedescendant"),
      `${await p.listbox.getAttribute("id")}-${count - 1}`,
      "Up from the first wraps to the last",
    );
    await p.box.press("ArrowDown");
    assert.equal(await activeLabel(), "view", "Down from the last wraps to the first");
    await page
      .getByRole("status")
      .filter({ hasText: /view, File, Project root, 1 of \d+/ })
      .waitFor();

    await p.box.press("ArrowDown");
    await p.box.press("Tab");
    assert.equal(await p.box.inputValue(), "@viewer.ts ");
    assert.ok(await p.box.evaluate((t) => t === document.activeElement), "Tab selected instead of moving the focus");

    await p.type("@view");
    await p.waitLabels((l) => l[0] === "view", "the view rows");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "@view ");

    await p.type("@view");
    await p.listbox.waitFor();
    await p.box.press("Escape");
    await until(
      () => p.listbox.count(),
      (n) => n === 0,
      "Escape dismisses",
    );
    assert.equal(await p.box.inputValue(), "@view");
    await p.type("@zzqx");
    await p.listbox.getByText("No matches").waitFor();
    await p.box.press("Escape");
    await until(
      () => p.listbox.count(),
      (n) => n === 0,
      "Escape dismisses with no matches",
    );

    await p.type("@view");
    await p.listbox.waitFor();
    await page.locator(".chat-view h2").click();
    await until(
      () => p.listbox.count(),
      (n) => n === 0,
      "a click outside dismisses",
    );
    assert.equal(await p.box.inputValue(), "@view");
  });

  it("rule 15: Enter on a complete custom action runs it from the popup, beating a similarly named file, even when Enter inserts a newline", async () => {
    await stack.api("PATCH", "/api/settings/app", { chat: { enterInsertsNewline: true } });
    await reloadChat();
    await p.type("@deploy");
    await p.waitLabels((l) => l[0] === "deploy.md" && l.includes("Deploy site"), "the file first, then the action");
    await p.box.press("Enter");
    await page.locator(".tool-card .summary", { hasText: "echo deployed-by-action" }).waitFor();
    await turnEnded();
    assert.equal(await p.box.inputValue(), "", "no newline, no file inserted: the action ran");

    // Enter on the action's row (found by its description) inserts it and runs it.
    await p.type("@Publishes");
    await p.waitLabels((l) => l.length === 1 && l[0] === "Deploy site", "the action by its description");
    await p.box.press("Enter");
    await until(
      () => page.locator(".tool-card .summary", { hasText: "echo deployed-by-action" }).count(),
      (n) => n === 2,
      "the action ran again",
    );
    await turnEnded();
    assert.equal(await p.box.inputValue(), "");
    // Enter still inserts a newline elsewhere.
    await p.type("plain");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "plain\n");
    await stack.api("PATCH", "/api/settings/app", { chat: { enterInsertsNewline: false } });
    await reloadChat();
  });

  it("rule 16: a pick replaces the whole token under the caret, with no stray characters and no double space, and stays editable", async () => {
    await p.box.fill("look at @READxyz please");
    await p.box.press("Home");
    for (let i = 0; i < "look at @READ".length; i++) await p.box.press("ArrowRight");
    await p.waitLabels((l) => l[0] === "README.md", "README.md for the token under the caret");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "look at @README.md please");
    assert.equal(await p.caret(), "look at @README.md ".length);
    // Editable: Backspace over the inserted text, and the popup is back for what is left.
    await p.box.press("ArrowLeft");
    for (let i = 0; i < 3; i++) await p.box.press("Backspace");
    assert.equal(await p.box.inputValue(), "look at @README please");
    await p.waitLabels((l) => l[0] === "README.md", "the popup for the edited token");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "look at @README.md please");
  });

  it("rule 6: MCP tools come from running servers, with a plug icon, the server and the description", async () => {
    await startEverything(stack);
    await p.type("@");
    await chip("MCP").click();
    await p.waitLabels((l) => l.includes("echo"), "the MCP tools", 15_000);
    const echo = p.options.filter({ has: page.locator(".label", { hasText: /^echo$/ }) });
    assert.equal(await echo.locator("svg.icon").getAttribute("data-icon"), "plug");
    assert.match((await echo.locator(".detail").textContent())!, /^everything · Echo/);
    await screenshot(page, "mentions-06-mcp");
  });

  it("rule 17: a tool with parameters inserts `@tool:firstArg=` plus backticks with the caret inside; the Parameters chips add the rest, required ones bold and accented; MCP picker syntax dispatches", async () => {
    await p.type("@shell");
    await p.waitLabels((l) => l[0] === "shell", "the shell tool");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "@shell:cmd=``");
    assert.equal(await p.caret(), "@shell:cmd=`".length);
    assert.equal(await p.listbox.count(), 0, "no popup inside the value");
    await p.box.pressSequentially("echo picked value");
    assert.equal(await p.box.inputValue(), "@shell:cmd=`echo picked value`");
    assert.deepEqual(
      (await p.parameters.getByRole("button").allTextContents()).map((t) => t.trim()),
      ["cwd", "timeoutMs"],
    );
    await p.parameters.getByRole("button", { name: "cwd" }).click();
    assert.equal(await p.box.inputValue(), "@shell:cmd=`echo picked value` cwd=``");
    assert.equal(await p.caret(), (await p.box.inputValue()).length - 1);
    await p.box.pressSequentially(".");
    assert.deepEqual(
      (await p.parameters.getByRole("button").allTextContents()).map((t) => t.trim()),
      ["timeoutMs"],
    );
    await p.box.press("Enter");
    await page.locator(".tool-card .summary", { hasText: "echo picked value" }).waitFor();
    await turnEnded();

    await p.type("@get-sum");
    await p.waitLabels((l) => l[0] === "get-sum", "the MCP sum tool");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "@mcp__everything__get-sum:a=``");
    const b = p.parameters.getByRole("button", { name: "b (required)" });
    const style = await b.evaluate((el) => ({
      weight: getComputedStyle(el).fontWeight,
      color: getComputedStyle(el).color,
      accent: getComputedStyle(document.documentElement).getPropertyValue("--accent"),
    }));
    assert.equal(style.weight, "700");
    assert.ok(style.accent.trim() !== "", "the accent colour is set");
    await screenshot(page, "mentions-17-parameters");
    await p.box.pressSequentially("2");
    await b.click();
    await p.box.pressSequentially("3");
    assert.equal(await p.box.inputValue(), "@mcp__everything__get-sum:a=`2` b=`3`");
    assert.equal(await p.parameters.count(), 0, "no parameter left");
    await p.box.press("Enter");
    await screenshot(page, "mentions-17-dispatched");
    // Named for people ("<server> › get-sum", the id on hover); a direct run's card opens by default.
    const card = page.locator(".tool-item > .tool-card[aria-label$='› get-sum']");
    await card.waitFor();
    await turnEnded();
    await until(
      () => card.textContent(),
      (t) => /5/.test(t ?? ""),
      "the sum in the card",
      10_000,
    );
  });
});
