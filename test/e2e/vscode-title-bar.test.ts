// The Parley view's title-bar buttons (New Chat, Chat History, Settings, Open in Browser), its two
// keys (New Chat, Focus Message Box) and a tool card's Open diff, in a real VS Code (code-server)
// driven through a real Chromium.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { chromiumAvailable, screenshot } from "../helpers/browser";
import {
  codeServerInstalled,
  openParleyView,
  openWorkbench,
  packageVsix,
  runCommand,
  setGatewayApiKey,
  startEditor,
  viewTitleButton,
  webviewFrame,
  type Editor,
} from "../helpers/code-server";
import { chooseModel } from "../helpers/model-picker";
import { until } from "../helpers/poll";
import { defaultKeybindings, normalizeChord, type KeyOs } from "../helpers/vscode-keybindings";

const NEW_CHAT_KEY = "Control+Alt+Shift+P";
const FOCUS_KEY = "Control+Alt+P";

type Manifest = { contributes: { keybindings: { command: string; key: string; mac: string }[] } };

describe("Parley's view title bar, keys and Open diff in a real VS Code (code-server)", function () {
  this.timeout(240_000);
  let editor: Editor;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let panel: Frame;
  /** The chat whose turn changed notes.txt. */
  let diffChatId: string;

  const chatId = async () => /^#\/chat\/(.+)$/.exec(await panel.evaluate(() => window.location.hash))?.[1];
  /** Which element of the panel has the focus, and whether the panel's page has it at all. */
  const panelFocus = () =>
    panel.evaluate(() => ({
      label: document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.tagName,
      pageHasFocus: document.hasFocus(),
    }));
  /** Puts the keyboard focus in the editor area, away from the panel. */
  const focusEditor = async () => {
    await runCommand(page, "View: Focus Active Editor Group");
    await until(panelFocus, (focus) => !focus.pageHasFocus, "the panel gives up the focus");
  };
  /** The keys reach the Message box: what a user types after the key lands there. */
  const typesIntoMessageBox = async (text: string) => {
    await until(panelFocus, (f) => f.label === "Message" && f.pageHasFocus, "the Message box has the focus", 15_000);
    await page.keyboard.type(text);
    assert.equal(await panel.getByRole("combobox", { name: "Message" }).inputValue(), text);
    await panel.getByRole("combobox", { name: "Message" }).fill("");
  };

  before(async function () {
    if (!chromiumAvailable() || !codeServerInstalled()) {
      console.warn(
        "    code-server or Chromium is missing (bash scripts/setup-code-server.sh; apt-get install chromium): VS Code tests skipped",
      );
      this.skip();
    }
    // Both sides of a diff, however narrow the editor area is beside the side bars.
    editor = await startEditor(packageVsix(), { settings: { "diffEditor.useInlineViewWhenSpaceIsLimited": false } });
    fs.writeFileSync(path.join(editor.workspace, "notes.txt"), "alpha beta\n");
    ({ browser, context, page } = await openWorkbench(editor));
    panel = await openParleyView(page);
    await setGatewayApiKey(page, "sk-fake-title-bar");
  });

  after(async () => {
    await browser?.close();
    await editor?.stop();
  });

  it("shows New Chat, Chat History, Settings and Open in Browser in the view's title bar, with New Chat's key", async () => {
    for (const title of ["New Chat", "Chat History", "Settings", "Open in Browser"])
      await viewTitleButton(page, title).waitFor({ timeout: 30_000 });
    assert.equal(await viewTitleButton(page, "New Chat").getAttribute("aria-label"), "New Chat (Ctrl+Shift+Alt+P)");
    await screenshot(page, "vscode-title-bar-01-buttons");
  });

  it("New Chat in the title bar opens a new chat in the panel", async () => {
    await viewTitleButton(page, "New Chat").click();
    await panel.locator(".chat-view h2", { hasText: "New chat" }).waitFor();
    diffChatId = (await until(chatId, Boolean, "the panel shows a chat"))!;
  });

  it("Open diff on a file change opens VS Code's diff editor: the file before the turn beside the file now", async () => {
    await chooseModel(panel, "fake/tools");
    await panel.getByLabel("Message").fill("edit: notes.txt beta => gamma");
    await panel.getByLabel("Message").press("Enter");
    // The approval is the only Allow button, wherever the chat shows it.
    await panel.getByRole("button", { name: "Allow", exact: true }).click();
    const card = panel.getByRole("group", { name: "file notes.txt" });
    await panel.locator(".message.assistant", { hasText: "Tool said:" }).waitFor();
    assert.equal(fs.readFileSync(path.join(editor.workspace, "notes.txt"), "utf8"), "alpha gamma\n");
    await card.getByRole("button", { expanded: false }).click();
    await card.getByRole("button", { name: "Open diff" }).click();

    const tab = page.locator(".tabs-container .tab.active");
    await tab.locator(".label-name", { hasText: "notes.txt (before the turn ↔ now)" }).waitFor({ timeout: 30_000 });
    const diff = page.locator(".monaco-diff-editor").first();
    const side = (which: "original" | "modified") =>
      diff
        .locator(`.editor.${which} .lines-content > .view-lines`)
        .innerText()
        .then((text) => text.replaceAll("\u00a0", " ").trim());
    await until(
      () => side("modified"),
      (text) => text === "alpha gamma",
      "the right side shows the file now",
    );
    assert.equal(await side("original"), "alpha beta", "the left side shows the file before the turn");
    await screenshot(page, "vscode-title-bar-02-open-diff");
    // The right side is the workspace file itself, not a copy: a change on disk shows there, and the
    // left side keeps what the turn started from.
    fs.writeFileSync(path.join(editor.workspace, "notes.txt"), "alpha delta\n");
    await until(
      () => side("modified"),
      (text) => text === "alpha delta",
      "the right side follows the file",
    );
    assert.equal(await side("original"), "alpha beta");
  });

  it("Chat History in the title bar shows the project's chat list", async () => {
    await viewTitleButton(page, "Chat History").click();
    const chats = panel.getByRole("region", { name: "Chats" });
    await chats.getByRole("heading", { name: "Chats" }).waitFor();
    await chats.locator(".chat-row").first().waitFor();
    assert.equal(await panel.evaluate(() => window.location.hash), "#/");
  });

  it("Settings in the title bar opens Settings", async () => {
    await viewTitleButton(page, "Settings").click();
    await panel.getByRole("region", { name: "Settings" }).waitFor();
    const current = panel.locator('nav[aria-label="Main"] a[aria-current="page"]');
    assert.equal(await current.textContent(), "Settings");
    await screenshot(page, "vscode-title-bar-03-settings");
  });

  it("Open in Browser in the title bar opens the same UI in a browser tab, signed in", async () => {
    const popup = context.waitForEvent("page");
    await viewTitleButton(page, "Open in Browser").click();
    const tab = await popup;
    await tab.getByRole("heading", { name: "Chats" }).waitFor({ timeout: 30_000 });
    assert.equal(new URL(tab.url()).search, "", "the token does not stay in the address bar");
    await tab.close();
    await page.bringToFront();
  });

  it(`${FOCUS_KEY} opens the project's latest chat from another page and puts the caret in its Message box`, async () => {
    // The panel shows Settings (the previous test); the chat that changed notes.txt is the latest.
    await focusEditor();
    await page.keyboard.press(FOCUS_KEY);
    await until(chatId, (id) => id === diffChatId, "the panel opens the latest chat");
    await typesIntoMessageBox("typed after the key");
  });

  it(`${FOCUS_KEY} puts the caret in the open chat's Message box`, async () => {
    await focusEditor();
    await page.keyboard.press(FOCUS_KEY);
    await typesIntoMessageBox("again");
    assert.equal(await chatId(), diffChatId, "the same chat stays");
  });

  it(`${FOCUS_KEY} opens the closed side bar on the chat, with the caret in the Message box`, async () => {
    await runCommand(page, "View: Close Primary Side Bar");
    await page.locator(".part.sidebar").waitFor({ state: "hidden" });
    await page.keyboard.press(FOCUS_KEY);
    // The panel's page is loaded again (VS Code keeps no hidden webview): the key's target waits for it.
    panel = await webviewFrame(page);
    await until(chatId, (id) => id === diffChatId, "the panel opens the latest chat");
    await typesIntoMessageBox("after reopening");
    await screenshot(page, "vscode-title-bar-04-focus-key");
  });

  it(`${NEW_CHAT_KEY} starts a new chat, from the editor and from inside the panel`, async () => {
    await focusEditor();
    await page.keyboard.press(NEW_CHAT_KEY);
    const first = await until(chatId, (id) => id !== undefined && id !== diffChatId, "a new chat opens");
    await panel.locator(".chat-view h2", { hasText: "New chat" }).waitFor();
    // The panel passes the editor's keys on: the same key in the Message box starts another chat.
    await page.keyboard.press(FOCUS_KEY);
    await until(panelFocus, (f) => f.label === "Message" && f.pageHasFocus, "the Message box has the focus");
    await page.keyboard.press(NEW_CHAT_KEY);
    await until(chatId, (id) => id !== undefined && id !== first && id !== diffChatId, "another new chat opens");
  });

  it("binds keys that no default VS Code shortcut uses, on Linux, Windows and macOS", async function () {
    this.timeout(180_000);
    const manifest = JSON.parse(fs.readFileSync("package.json", "utf8")) as Manifest;
    const ours = manifest.contributes.keybindings;
    assert.deepEqual(ours.map((b) => b.command).sort(), ["parley.focusComposer", "parley.newChat"]);
    const clashes: string[] = [];
    for (const os of ["linux", "windows", "mac"] as KeyOs[]) {
      const defaults = await defaultKeybindings(browser, editor, os);
      for (const binding of ours) {
        const key = normalizeChord(os === "mac" ? binding.mac : binding.key);
        const bound = defaults.filter((d) => d.key === key);
        // Our own entries are in the list too: proof that it is the whole list, extensions included.
        assert.ok(
          bound.some((d) => d.command === binding.command),
          `${os}: ${key} is listed for ${binding.command}`,
        );
        for (const other of bound.filter((d) => d.command !== binding.command))
          clashes.push(`${os}: ${key} is also ${other.command}`);
      }
    }
    assert.deepEqual(clashes, []);
  });
});
