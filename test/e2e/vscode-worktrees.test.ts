// Worktree chats in a real VS Code (code-server) driven through a real Chromium (contract 7.6): the
// palette command "Parley: New Chat in Worktree" refuses a folder outside git and a repository without
// commits in the server's words, then creates a chat on a `parley/…` branch and opens it in the panel;
// a fake/tools turn writes notes.txt in the chat's worktree, and the webview's openWorktreeDiff message
// opens VS Code's diff editor with the file at the base beside the file in the worktree.
import assert from "node:assert/strict";
import { git } from "../helpers/git-repo";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import type { Board } from "../../src/shared/worktrees";
import { chromiumAvailable, screenshot } from "../helpers/browser";
import {
  codeServerInstalled,
  openParleyView,
  openWorkbench,
  packageVsix,
  runCommand,
  setGatewayApiKey,
  startEditor,
  type Editor,
} from "../helpers/code-server";
import { until } from "../helpers/poll";
import { readEvents } from "../helpers/sse";

type Bootstrap = { serverUrl: string; token: string; projectId: string };

describe("worktree chats in a real VS Code (code-server): the palette command and the diff editor", function () {
  this.timeout(240_000);
  let editor: Editor;
  let browser: Browser;
  let page: Page;
  let panel: Frame;
  /** The panel's own bootstrap: the extension's server and its token. */
  let server: Bootstrap;
  let chatId: string;
  let branch: string;

  const api = (method: string, route: string, body?: unknown) =>
    fetch(`${server.serverUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const board = async () =>
    (await (await api("GET", `/api/projects/${server.projectId}/worktree-chats`)).json()) as Board;
  const panelChat = async () => /^#\/chat\/(.+)$/.exec(await panel.evaluate(() => window.location.hash))?.[1];
  /** The branch in the open chat's header, a link to the chat's entry on the Agents board. */
  const branchLink = () => panel.locator(".chat-header").getByRole("link", { name: branch });
  const toast = (text: string) => page.locator(".notifications-toasts .notification-toast", { hasText: text });

  /** A fake/tools turn in the chat, its file call allowed through the API as the panel's Allow would. */
  async function turn(content: string): Promise<void> {
    const answers: Promise<Response>[] = [];
    const response = await api("POST", `/api/chats/${chatId}/messages/stream`, { content, modelId: "fake/tools" });
    // The body is read only on a failure: a turn's stream ends after its approval is answered.
    if (response.status !== 200) assert.fail(`the turn did not start: ${response.status} ${await response.text()}`);
    const events = await readEvents(response, (event) => {
      if (event.event === "tool.approval")
        answers.push(api("POST", `/api/chats/${chatId}/approvals/${event.data.callId}`, { decision: "allow" }));
    });
    assert.deepEqual(
      (await Promise.all(answers)).map((r) => r.status),
      [204],
    );
    assert.equal(events.at(-1)?.event, "turn.end");
  }

  /**
   * Sends the webview → host message exactly as the panel's `vscode.postMessage` does: VS Code's
   * webview frame (the parent of the panel's page) hands it to the extension host.
   */
  async function postToHost(message: unknown): Promise<void> {
    const outer = panel.parentFrame();
    assert.ok(outer, "the panel's page sits in VS Code's webview frame");
    await outer.evaluate(
      (m) =>
        (window as unknown as { __vscode_post_message__(c: string, d: unknown): void }).__vscode_post_message__(
          "onmessage",
          { message: m, transfer: undefined },
        ),
      message,
    );
  }

  const diffSide = (which: "original" | "modified") =>
    page
      .locator(".monaco-diff-editor")
      .first()
      .locator(`.editor.${which} .lines-content > .view-lines`)
      .innerText()
      .then((text) => text.replaceAll("\u00a0", " ").trim());

  before(async function () {
    if (!chromiumAvailable() || !codeServerInstalled()) {
      console.warn(
        "    code-server or Chromium is missing (bash scripts/setup-code-server.sh; apt-get install chromium): VS Code tests skipped",
      );
      this.skip();
    }
    // Both sides of a diff, however narrow the editor area is beside the side bars.
    editor = await startEditor(packageVsix(), {
      settings: {
        "diffEditor.useInlineViewWhenSpaceIsLimited": false,
        // VS Code's own Chat view stays closed, so typing lands in the palette (docs/real-vscode.md).
        "chat.disableAIFeatures": true,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
      },
    });
    fs.writeFileSync(path.join(editor.workspace, "notes.txt"), "alpha beta\n");
    ({ browser, page } = await openWorkbench(editor));
    panel = await openParleyView(page);
    await setGatewayApiKey(page, "sk-fake-worktrees");
    server = await panel.evaluate(
      () => JSON.parse(document.getElementById("parley-bootstrap")!.textContent!) as Bootstrap,
    );
    assert.ok(server.projectId, "the workspace folder is the panel's project");
  });

  after(async () => {
    await browser?.close();
    await editor?.stop();
  });

  it("in a folder outside git, the command says so in the server's words and creates nothing", async () => {
    await runCommand(page, "Parley: New Chat in Worktree");
    await toast(
      "Parley: this project is not a git repository; a worktree chat needs one (git init, then a commit)",
    ).waitFor({ timeout: 30_000 });
    await screenshot(page, "vscode-worktrees-01-not-git");
    assert.deepEqual((await board()).entries, []);
    const stored = (await (await api("GET", `/api/projects/${server.projectId}/chats`)).json()) as unknown[];
    assert.deepEqual(stored, [], "no chat was stored");
  });

  it("in a repository without commits, the command says so and creates nothing", async () => {
    git(editor.workspace, "init", "-q", "-b", "main");
    await runCommand(page, "Parley: New Chat in Worktree");
    await toast("Parley: this repository has no commits yet; make a first commit, then start a worktree chat").waitFor({
      timeout: 30_000,
    });
    assert.deepEqual((await board()).entries, []);
    assert.equal(git(editor.workspace, "branch", "--list"), "", "no branch was made");
  });

  it("offers New Chat in Worktree in the view's title-bar menu", async () => {
    await page
      .locator(".part.sidebar > .composite.title")
      .getByRole("button", { name: /More Actions/ })
      .click();
    const item = page.locator(".monaco-menu .action-label", { hasText: "New Chat in Worktree" });
    await item.waitFor();
    await screenshot(page, "vscode-worktrees-02-view-menu");
    await page.keyboard.press("Escape");
    await item.waitFor({ state: "hidden" });
  });

  it("in a repository with a commit, creates a chat on a parley/ branch in its own worktree and opens it in the panel", async () => {
    git(editor.workspace, "add", "-A");
    git(editor.workspace, "commit", "-q", "-m", "first");
    await runCommand(page, "Parley: New Chat in Worktree");
    const entries = (await until(board, (b) => b.entries.length === 1, "the board lists one worktree chat")).entries;
    const entry = entries[0]!;
    chatId = entry.chat.id;
    branch = entry.chat.worktreeBranch!;
    assert.match(branch, /^parley\/[a-z0-9-]+$/);
    assert.equal(entry.worktree?.branch, branch);
    assert.equal(entry.worktree?.base, "main");
    assert.ok(!entry.worktree!.path.startsWith(editor.workspace), "the worktree is outside the project");
    assert.ok(git(editor.workspace, "branch", "--list", branch), "the branch exists in the project's repository");
    await until(panelChat, (id) => id === chatId, "the panel opens the worktree chat");
    await toast(`Parley: the new chat works on branch ${branch}.`).waitFor();
    // The chat's header names its branch (a link to its entry on the Agents board).
    await branchLink().waitFor();
    await screenshot(page, "vscode-worktrees-03-opened");
  });

  it("opens VS Code's diff editor for a file the chat changed: the file at the base beside the file in the worktree", async () => {
    await turn("write: notes.txt hello");
    assert.equal(
      fs.readFileSync(path.join(editor.workspace, "notes.txt"), "utf8"),
      "alpha beta\n",
      "the project is untouched",
    );
    const info = (await (await api("GET", `/api/chats/${chatId}/worktree`)).json()) as { changedFiles: unknown[] };
    assert.deepEqual(info.changedFiles, [{ path: "notes.txt", added: 1, removed: 1 }]);

    await postToHost({ type: "openWorktreeDiff", chatId, path: "notes.txt" });
    const tab = page.locator(".tabs-container .tab.active");
    await tab.locator(".label-name", { hasText: `notes.txt (main ↔ ${branch})` }).waitFor({ timeout: 30_000 });
    await until(
      () => diffSide("modified"),
      (text) => text === "hello",
      "the right side shows the file in the worktree",
    );
    assert.equal(await diffSide("original"), "alpha beta", "the left side shows the file at the base");
    await screenshot(page, "vscode-worktrees-04-diff");
  });

  it("shows the worktree's latest text when the same diff is opened again after another turn", async () => {
    await turn("write: notes.txt hello again");
    await postToHost({ type: "openWorktreeDiff", chatId, path: "notes.txt" });
    await until(
      () => diffSide("modified"),
      (text) => text === "hello again",
      "the right side follows the worktree",
    );
    assert.equal(await diffSide("original"), "alpha beta");
    assert.equal(await page.locator(".tabs-container .tab", { hasText: "notes.txt (main ↔" }).count(), 1, "one tab");
  });

  it("opens the same diff editor from the Diff button of the chat's entry on the Agents board in the panel", async () => {
    await runCommand(page, "View: Close All Editors");
    await until(
      () => page.locator(".tabs-container .tab").count(),
      (n) => n === 0,
      "the diff editor closes",
    );
    await branchLink().click();
    await panel.getByRole("button", { name: "Diff of notes.txt" }).click();
    const tab = page.locator(".tabs-container .tab.active");
    await tab.locator(".label-name", { hasText: `notes.txt (main ↔ ${branch})` }).waitFor({ timeout: 30_000 });
    await until(
      () => diffSide("modified"),
      (text) => text === "hello again",
      "the right side shows the file in the worktree",
    );
    assert.equal(await diffSide("original"), "alpha beta");
    await screenshot(page, "vscode-worktrees-05-board-diff");
  });

  it("opens nothing for a file the chat did not change, and says why", async () => {
    await postToHost({ type: "openWorktreeDiff", chatId, path: "README.md" });
    await toast("Parley: cannot open the diff (README.md is not among the files this chat changed)").waitFor({
      timeout: 30_000,
    });
    await postToHost({ type: "openWorktreeDiff", chatId, path: "../../../etc/hostname" });
    await toast("../../../etc/hostname is not among the files this chat changed").waitFor({ timeout: 30_000 });
    assert.equal(await page.locator(".tabs-container .tab").count(), 1, "no editor opened besides the diff");
  });
});
