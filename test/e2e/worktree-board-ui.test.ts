// Worktree chats and their Agents board (contract 7.6, issue 39) in a real Chromium against `parley
// serve`, real git and the fake gateway's `fake/tools`: a project outside git says so on its card; New
// chat in a worktree opens a chat whose header shows its branch and links to its board entry; the board
// shows each chat's status in words, branch, changed files with their counts, cost and last message;
// an approval and a question are answered on the board; a file's diff opens inline; Merge and Squash
// land in the project; a conflict lists its files and changes nothing; Discard asks, then lists the
// unmerged files and offers Discard anyway. The board and a worktree chat's header at 320 and 1280
// px, light and dark, with axe.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { git as gitIn } from "../helpers/git-repo";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { chooseModel } from "../helpers/model-picker";
import { until } from "../helpers/poll";
import { checkScreens } from "../helpers/screens";
import type { Stack } from "../helpers/stack";

describe("web UI: worktree chats and the Agents board", function () {
  this.timeout(300_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let projectId = "";

  const git = (...args: string[]) => gitIn(stack.projectDir, ...args);
  const json = async (method: string, route: string, body?: unknown) => (await stack.api(method, route, body)).json();
  const card = (on: Page = page) => on.getByRole("region", { name: "my-project", exact: true });
  const board = (on: Page = page) => on.getByRole("region", { name: "Agents", exact: true });
  const entry = (title: string, on: Page = page) => board(on).getByRole("article", { name: title, exact: true });
  const chatIdInUrl = () => /#\/chat\/([^/]+)/.exec(page.url())?.[1] ?? "";
  const titleOf = async (chatId: string) => (await json("GET", `/api/chats/${chatId}`)).title as string;

  async function openHome(): Promise<void> {
    await page.goto(`${stack.url}/#/`);
    await card().getByRole("button", { name: "New chat", exact: true }).waitFor();
  }

  /** New chat in a worktree from the project card's menu, as a user starts one; its id. */
  async function newWorktreeChat(): Promise<string> {
    await openHome();
    await card().getByRole("button", { name: "More ways to start a chat" }).click();
    await page.getByRole("menuitem", { name: "New chat in a worktree" }).click();
    await page.getByRole("combobox", { name: "Message" }).waitFor();
    await chooseModel(page, "fake/tools");
    return chatIdInUrl();
  }

  async function say(text: string): Promise<void> {
    const box = page.getByRole("combobox", { name: "Message" });
    await box.fill(text);
    await box.press("Enter");
  }

  async function openBoard(on: Page = page): Promise<void> {
    await on.goto(`${stack.url}/#/project/${projectId}/agents`);
    await board(on).waitFor();
  }

  const status = (item: Locator) => item.locator(".status").textContent();

  /** Opens the board once the chat's turn is over (its entry says Done); the entry. */
  async function doneOnBoard(chatId: string): Promise<Locator> {
    await until(
      async () => (await json("GET", `/api/projects/${projectId}/worktree-chats`)).entries,
      (entries: { chat: { id: string }; status: string }[]) =>
        entries.some((e) => e.chat.id === chatId && e.status === "done"),
      "the chat's turn is over",
      20_000,
    );
    await openBoard();
    const item = entry(await titleOf(chatId));
    await until(status.bind(null, item), (s) => s === "Done", "its entry says Done");
    return item;
  }

  before(async function () {
    ui = await startBrowserStack(this, { viewport: { width: 1280, height: 900 } });
    ({ stack, page } = ui);
    projectId = (await json("GET", "/api/projects"))[0].id;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await openHome();
  });

  after(() => ui?.stop());

  it("says on the card that a project outside git cannot have a worktree chat, and nothing else changes", async () => {
    await card().getByRole("button", { name: "More ways to start a chat" }).click();
    await page.getByRole("menuitem", { name: "New chat in a worktree" }).click();
    const alert = card().getByRole("alert");
    await alert.waitFor();
    assert.match((await alert.textContent())!, /not a git repository/);
    assert.match(page.url(), /#\/$/, "the page stays");
    assert.equal(await card().getByRole("button", { name: "New chat", exact: true }).isVisible(), true);
    assert.deepEqual((await json("GET", `/api/projects/${projectId}/worktree-chats`)).entries, []);

    // The card with its refusal, and its menu open again (it must fit a 320 px side panel).
    await checkScreens(ui!.browser, "worktree-card", async (on) => {
      await on.goto(`${stack.url}/?token=${stack.token}#/`);
      const trigger = card(on).getByRole("button", { name: "More ways to start a chat" });
      await trigger.click();
      await on.getByRole("menuitem", { name: "New chat in a worktree" }).click();
      await card(on).getByRole("alert").waitFor();
      await trigger.click();
      await on.getByRole("menuitem", { name: "New chat in a worktree" }).waitFor();
    });
  });

  it("starts a worktree chat from the card, shows its branch in the header, and answers its approval on the board", async () => {
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "first");

    const chatId = await newWorktreeChat();
    const branch = (await json("GET", `/api/chats/${chatId}`)).worktreeBranch as string;
    assert.match(branch, /^parley\/[a-z0-9-]+$/);
    const branchLink = page.getByRole("link", { name: `${branch}, on the Agents board`, exact: true });
    await branchLink.waitFor();
    assert.equal((await branchLink.textContent())!.trim(), `⎇${branch}`);
    await say("write: notes.txt hello");
    // The file gate asks (its default): the chat waits; the approval is answered on the board.
    await page.getByRole("region", { name: "Waiting for you" }).waitFor();
    await branchLink.click();
    await board().waitFor();
    assert.match(page.url(), new RegExp(`#/project/${projectId}/agents/${chatId}$`));
    const title = await titleOf(chatId);
    const item = entry(title);
    await item.waitFor();
    await until(
      () => item.evaluate((el) => el === document.activeElement),
      (focused) => focused,
      "the chat's entry has the focus when its header links here",
    );
    assert.equal(await status(item), "Waiting for you");
    const waiting = item.getByRole("region", { name: "Waiting for you" });
    assert.match((await waiting.textContent())!, /Allow this call\?\s*file/);
    assert.equal(await waiting.getByLabel("What the call does").textContent(), "write notes.txt");
    assert.match((await item.textContent())!, new RegExp(`⎇${branch}`));

    await waiting.getByRole("button", { name: "Allow" }).click();
    await until(status.bind(null, item), (s) => s === "Done", "the entry is done", 20_000);
    const files = item.getByRole("list", { name: "1 file changed" });
    assert.match((await files.getByRole("listitem").textContent())!, /notes\.txt\s*\+1\s*−0/);
    assert.match((await item.textContent())!, /cost (\$|<|unknown)/);
    assert.match((await item.textContent())!, /Last message:/);
    assert.match((await board().textContent())!, /Total cost: /);
    assert.ok(!fs.existsSync(path.join(stack.projectDir, "notes.txt")), "the project is untouched before a merge");
  });

  it("opens a file's diff inline, by keyboard too", async () => {
    const item = entry(
      await titleOf((await json("GET", `/api/projects/${projectId}/worktree-chats`)).entries[0].chat.id),
    );
    const diff = item.getByRole("button", { name: "Diff of notes.txt" });
    assert.equal(await diff.getAttribute("aria-expanded"), "false");
    await diff.focus();
    await page.keyboard.press("Enter");
    const shown = item.getByLabel("Changes to notes.txt");
    await shown.waitFor();
    assert.equal(await diff.getAttribute("aria-expanded"), "true");
    assert.match((await shown.textContent())!, /\+\+\+ b\/notes\.txt/);
    assert.match((await shown.textContent())!, /\+hello/);
    assert.equal(await shown.locator("ins").count(), 1, "the added line is marked as inserted");
    await page.keyboard.press("Space");
    await shown.waitFor({ state: "detached" });
  });

  it("merges a chat's work into main", async () => {
    const [first] = (await json("GET", `/api/projects/${projectId}/worktree-chats`)).entries;
    const item = entry(first.chat.title);
    await item.getByRole("button", { name: "Merge into main" }).click();
    await until(
      () => item.getByRole("status").textContent(),
      (t) => t === "Merged notes.txt into main.",
      "merged",
    );
    assert.equal(fs.readFileSync(path.join(stack.projectDir, "notes.txt"), "utf8"), "hello");
    assert.match(git("log", "-1", "--format=%s"), new RegExp(`^Merge ${first.worktree.branch}: `));
    assert.equal(git("status", "--porcelain", "--untracked-files=no"), "", "the project's tree is clean");
  });

  it("squashes another chat's work into main as one commit", async () => {
    // From here the file tool is allowed, so turns run through.
    await stack.api("PATCH", `/api/settings/project?projectDir=${encodeURIComponent(stack.projectDir)}`, {
      toolGates: { file: "allow" },
    });
    const chatId = await newWorktreeChat();
    await say("write: other.txt from the second chat");
    const item = await doneOnBoard(chatId);
    await item.getByRole("button", { name: "Squash into main" }).click();
    await until(
      () => item.getByRole("status").textContent(),
      (t) => t === "Squashed other.txt into main.",
      "squashed",
    );
    assert.equal(fs.readFileSync(path.join(stack.projectDir, "other.txt"), "utf8"), "from the second chat");
    assert.equal(git("rev-list", "--parents", "-n", "1", "HEAD").split(" ").length, 2, "one parent: not a merge");
    await item.getByText("No changes to merge").waitFor();
  });

  let conflicted = "";
  it("lists the files of a conflicting merge and changes nothing", async () => {
    conflicted = await newWorktreeChat();
    await say("write: README.md the chat's readme");
    await doneOnBoard(conflicted);
    fs.writeFileSync(path.join(stack.projectDir, "README.md"), "# Changed on main\n");
    git("commit", "-q", "-am", "main moves on");
    const head = git("rev-parse", "HEAD");

    await openBoard();
    const item = entry(await titleOf(conflicted));
    await item.getByRole("button", { name: "Merge into main" }).click();
    const alert = item.getByRole("alert");
    await alert.waitFor();
    assert.match((await alert.textContent())!, /would conflict; nothing was changed/);
    assert.deepEqual(
      await alert.getByRole("list", { name: "Files in the way" }).getByRole("listitem").allTextContents(),
      ["README.md"],
    );
    assert.equal(git("rev-parse", "HEAD"), head, "main did not move");
    assert.equal(fs.readFileSync(path.join(stack.projectDir, "README.md"), "utf8"), "# Changed on main\n");
    assert.equal(git("status", "--porcelain", "--untracked-files=no"), "");
  });

  it("answers a question on the board with one of its choices", async () => {
    const chatId = await newWorktreeChat();
    await say("ask: Shall I go on?");
    await page.getByRole("region", { name: "Waiting for you" }).waitFor();
    // Through the header's link: leaving the view of a worktree chat leaves its turn running.
    await page.getByRole("link", { name: /, on the Agents board$/ }).click();
    await board().waitFor();
    const item = entry(await titleOf(chatId));
    await until(status.bind(null, item), (s) => s === "Waiting for you", "the question waits");
    const waiting = item.getByRole("region", { name: "Waiting for you" });
    assert.match((await waiting.textContent())!, /Shall I go on\?/);
    await waiting.getByRole("group", { name: "Choices" }).getByRole("button", { name: "yes" }).click();
    await until(status.bind(null, item), (s) => s === "Done", "answered", 20_000);
    assert.equal(await item.getByRole("region", { name: "Waiting for you" }).count(), 0);
  });

  it("shows the board and a worktree chat's header at 320 and 1280 px, light and dark, with axe", async () => {
    // One chat left waiting, so its approval shows too.
    await stack.api("PATCH", `/api/settings/project?projectDir=${encodeURIComponent(stack.projectDir)}`, {
      toolGates: { file: "ask" },
    });
    const waitingChat = await newWorktreeChat();
    await say(`write: docs/${"a-rather-long-folder-name/".repeat(3)}guide.md a guide`);
    await page.getByRole("region", { name: "Waiting for you" }).waitFor();
    const conflictedTitle = await titleOf(conflicted);

    await checkScreens(ui!.browser, "worktree-board", async (on) => {
      await on.goto(`${stack.url}/?token=${stack.token}#/project/${projectId}/agents`);
      const item = entry(conflictedTitle, on);
      await item.getByRole("button", { name: "Diff of README.md" }).click();
      await item.getByLabel("Changes to README.md").waitFor();
      await item.getByRole("button", { name: "Merge into main" }).click();
      await item.getByRole("alert").waitFor();
      await entry(await titleOf(waitingChat), on)
        .getByRole("button", { name: "Allow" })
        .waitFor();
    });
    await checkScreens(ui!.browser, "worktree-chat-header", async (on) => {
      await on.goto(`${stack.url}/?token=${stack.token}#/chat/${waitingChat}`);
      await on.getByRole("link", { name: /^parley\/.+, on the Agents board$/ }).waitFor();
      await on.getByRole("region", { name: "Waiting for you" }).waitFor();
    });
    // Answered on the board so the chat is idle for what follows; the chat is left by its header's link.
    await page.getByRole("link", { name: /, on the Agents board$/ }).click();
    await board().waitFor();
    await entry(await titleOf(waitingChat))
      .getByRole("button", { name: "Deny" })
      .click();
    await until(status.bind(null, entry(await titleOf(waitingChat))), (s) => s !== "Waiting for you", "denied", 20_000);
  });

  it("asks before discarding, lists the unmerged files, and discards anyway", async () => {
    await openBoard();
    const title = await titleOf(conflicted);
    const item = entry(title);
    const branch = (await json("GET", `/api/chats/${conflicted}/worktree`)) as { branch: string; path: string };
    await item.getByRole("button", { name: "Discard" }).click();
    const confirm = item.getByRole("group", { name: "Confirm discard" });
    await confirm.waitFor();
    const cancel = confirm.getByRole("button", { name: "Cancel" });
    await until(
      () => cancel.evaluate((el) => el === document.activeElement),
      (f) => f,
      "the focus is on Cancel",
    );
    assert.match((await confirm.textContent())!, new RegExp(`branch ${branch.branch}\\?`));
    await confirm.getByRole("button", { name: "Discard worktree" }).click();
    const refused = confirm.getByRole("alert");
    await refused.waitFor();
    assert.match((await refused.textContent())!, /not merged/);
    assert.deepEqual(await refused.getByRole("listitem").allTextContents(), ["README.md"]);
    assert.ok(fs.existsSync(branch.path), "nothing was removed yet");

    await confirm.getByRole("button", { name: "Discard anyway" }).click();
    await item.waitFor({ state: "detached" });
    assert.equal(
      await board()
        .getByRole("heading", { name: "Agents" })
        .evaluate((el) => el === document.activeElement),
      true,
      "the focus goes to the board's heading",
    );
    assert.ok(!fs.existsSync(branch.path), "the worktree's folder is gone");
    assert.equal(git("branch", "--list", branch.branch), "", "its branch is gone");
    assert.equal((await json("GET", `/api/chats/${conflicted}`)).id, conflicted, "the chat keeps its messages");
  });

  it("starts an empty chat over in a worktree from its composer, with the model picked there", async () => {
    await openHome();
    await card().getByRole("button", { name: "New chat", exact: true }).click();
    await chooseModel(page, "fake/tools");
    const emptyChat = chatIdInUrl();
    await page.getByRole("button", { name: "Work in a worktree" }).click();
    await until(chatIdInUrl, (id) => id !== "" && id !== emptyChat, "the new chat opens");
    const chat = await json("GET", `/api/chats/${chatIdInUrl()}`);
    assert.match(chat.worktreeBranch, /^parley\//);
    assert.equal(chat.modelId, "fake/tools");
    await page.getByRole("link", { name: `${chat.worktreeBranch}, on the Agents board`, exact: true }).waitFor();
    // A worktree chat does not offer it again.
    assert.equal(await page.getByRole("button", { name: "Work in a worktree" }).count(), 0);
    await checkScreens(ui!.browser, "worktree-composer", async (on) => {
      await on.goto(`${stack.url}/?token=${stack.token}#/chat/${emptyChat}`);
      await on.getByRole("button", { name: "Work in a worktree" }).waitFor();
    });
    // Gone again, so the board holds only the chats the tests below expect.
    assert.equal((await stack.api("DELETE", `/api/chats/${chat.id}`)).status, 204);
  });
});
