// Project cards (issue 18) in a real Chromium against `parley serve` with two projects: one card per
// project named by it, a one-tap "New chat with <prompt>" that opens a chat with that prompt and
// whose row then shows the prompt's icon, the card's chats searched, renamed and deleted, recent
// chats with Show all, and the projects view at 320 px with axe-core in light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { makeTempDir, removeDir } from "../helpers/temp";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";
import { say, startedChat } from "../helpers/started-chat";

describe("web UI: project cards", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let otherRoot: string;
  let otherDir: string;
  const ids: Record<string, string> = {};

  const card = (name: string, on: Page = page) => on.getByRole("region", { name, exact: true });
  const json = async (method: string, route: string, body?: unknown) => (await stack.api(method, route, body)).json();

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    otherRoot = makeTempDir();
    otherDir = path.join(otherRoot, "second-project");
    fs.mkdirSync(otherDir);
    const projects = await json("GET", "/api/projects");
    ids.main = projects[0].id;
    ids.other = (await json("POST", "/api/projects", { dir: otherDir })).id;
    // An app prompt on every card, a project prompt on the first card only, and one not on cards.
    await stack.api("POST", "/api/prompts", {
      scope: "app",
      prompt: { id: "debugger", title: "Debug helper", content: "Find the bug.", icon: "bug", showOnProjectCard: true },
    });
    await stack.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: stack.projectDir,
      prompt: { id: "reviewer", title: "Reviewer", content: "Review it.", icon: "code", showOnProjectCard: true },
    });
    await stack.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: stack.projectDir,
      prompt: { id: "quiet", title: "Not on cards", content: "x" },
    });
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await card("my-project").waitFor();
  });

  after(async () => {
    await ui?.stop();
    if (otherRoot) removeDir(otherRoot);
  });

  it("shows one card per project with its name, folder, New chat and its card prompts", async () => {
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    await card("second-project").waitFor();
    assert.match(
      (await card("my-project").textContent())!,
      new RegExp(stack.projectDir.replace(/[/\\^$.*+?()[\]{}|]/g, "\\$&")),
    );
    await card("my-project").getByRole("button", { name: "New chat with Reviewer", exact: true }).waitFor();
    for (const name of ["my-project", "second-project"]) {
      await card(name).getByRole("button", { name: "New chat with Debug helper", exact: true }).waitFor();
      assert.equal(await card(name).getByRole("button", { name: "New chat", exact: true }).count(), 1);
    }
    assert.equal(
      await card("second-project").getByRole("button", { name: "New chat with Reviewer" }).count(),
      0,
      "a project prompt stays on its project's card",
    );
    assert.equal(await page.getByRole("button", { name: "New chat with Not on cards" }).count(), 0);
    assert.equal(await page.getByRole("link", { name: "Projects" }).getAttribute("aria-current"), "page");
  });

  it("starts a chat with a card prompt in one tap: the chat opens with that promptId and its row shows the icon", async () => {
    await card("my-project").getByRole("button", { name: "New chat with Reviewer", exact: true }).click();
    await page.waitForURL(/#\/chat\//);
    await page.locator(".chat-view").waitFor();
    const chatId = page.url().split("#/chat/")[1]!;
    const chat = await json("GET", `/api/chats/${chatId}`);
    assert.equal(chat.promptId, "reviewer");
    assert.equal(chat.cardPromptId, "reviewer");
    assert.equal(chat.projectId, ids.main);

    // Listed once it has a message.
    await say(stack, chatId);
    await page.goto(`${stack.url}/#/`);
    const row = card("my-project").locator(".chat-item", { has: page.locator(`[data-chat-id="${chatId}"]`) });
    const icon = row.getByRole("img", { name: "Started with Reviewer" });
    await icon.waitFor();
    assert.equal(await icon.getAttribute("data-icon"), "code");
  });

  it("opens a card prompt's chat in that card's project, which becomes the current one", async () => {
    await card("second-project").getByRole("button", { name: "New chat with Debug helper", exact: true }).click();
    await page.waitForURL(/#\/chat\//);
    const chatId = page.url().split("#/chat/")[1]!;
    const chat = await json("GET", `/api/chats/${chatId}`);
    assert.equal(chat.projectId, ids.other);
    assert.equal(chat.promptId, "debugger");
    assert.equal(
      await page.getByLabel("Project", { exact: true }).inputValue(),
      ids.other,
      "the header's project follows",
    );
    await say(stack, chatId);
    await page.goto(`${stack.url}/#/`);
    await card("second-project").getByRole("img", { name: "Started with Debug helper" }).waitFor();
    assert.equal(await card("my-project").getByRole("img", { name: "Started with Debug helper" }).count(), 0);

    // A chat link of the other card opens in its project.
    const mainChat = (await json("GET", `/api/projects/${ids.main}/chats`))[0].id;
    await card("my-project").locator(`[data-chat-id="${mainChat}"]`).click();
    await page.waitForURL(new RegExp(`#/chat/${mainChat}$`));
    await page.getByLabel("Project", { exact: true }).waitFor();
    assert.equal(await page.getByLabel("Project", { exact: true }).inputValue(), ids.main);

    // So does a link opened on its own (a bookmark): the chat's project becomes the current one.
    await page.goto("about:blank");
    await page.goto(`${stack.url}/#/chat/${chatId}`);
    await page.locator(".chat-view h2").waitFor();
    await page.waitForFunction(
      (id) => (document.querySelector("select[aria-label='Project']") as HTMLSelectElement | null)?.value === id,
      ids.other,
    );
  });

  it("searches, renames and deletes the chats of a card", async () => {
    for (const title of ["Alpha plan", "Beta notes", "Gamma ideas"]) await startedChat(stack, ids.other!, { title });
    await page.goto(`${stack.url}/#/`);
    const other = card("second-project");
    await other.locator(".chat-item", { hasText: "Gamma ideas" }).waitFor();
    await other.getByLabel("Search chats").fill("alpha");
    await page.waitForFunction(() => document.querySelectorAll("[aria-labelledby] .chat-item").length >= 1);
    const rows = other.locator(".chat-item");
    await rows.filter({ hasText: "Beta notes" }).waitFor({ state: "detached" });
    assert.equal(await rows.count(), 1);
    assert.equal(
      (await card("my-project").locator(".chat-item").count()) > 0,
      true,
      "the other card's search is its own",
    );

    await rows
      .first()
      .getByRole("button", { name: /^More actions for / })
      .click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    await rows.first().getByLabel("Chat title").fill("Alpha plan, renamed");
    await rows.first().getByLabel("Chat title").press("Enter");
    await other.locator(".chat-item", { hasText: "Alpha plan, renamed" }).waitFor();
    const id = await other
      .locator(".chat-item", { hasText: "Alpha plan, renamed" })
      .locator(".chat-row")
      .getAttribute("data-chat-id");
    assert.equal((await json("GET", `/api/chats/${id}`)).title, "Alpha plan, renamed");

    const renamed = other.locator(".chat-item", { hasText: "Alpha plan, renamed" });
    await renamed.getByRole("button", { name: "More actions for Alpha plan, renamed" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await renamed.getByRole("group", { name: "Confirm delete" }).getByRole("button", { name: "Delete chat" }).click();
    await other.getByText("No chat matches").waitFor();
    assert.equal((await stack.api("GET", `/api/chats/${id}`)).status, 404);
    await other.getByLabel("Search chats").fill("");
    await other.locator(".chat-item", { hasText: "Beta notes" }).waitFor();
  });

  it("lists the recent chats of each card and shows all on demand", async () => {
    for (let i = 1; i <= 6; i++) await startedChat(stack, ids.other!, { title: `Older ${i}` });
    // An empty chat (New chat left before its first message) is not listed, nor counted.
    await stack.api("POST", `/api/projects/${ids.other}/chats`, { title: "Never written in" });
    await page.goto(`${stack.url}/#/`);
    const other = card("second-project");
    const total = (await json("GET", `/api/projects/${ids.other}/chats`)).filter(
      (chat: { leafId: string | null }) => chat.leafId !== null,
    ).length;
    const showAll = other.getByRole("button", { name: `Show all ${total} chats` });
    await showAll.waitFor();
    assert.equal(await other.locator(".chat-item").count(), 5);
    await showAll.click();
    await page.waitForFunction((n) => document.querySelectorAll("[data-project-id] .chat-item").length >= n, total);
    assert.equal(await other.locator(".chat-item").count(), total);
  });

  it("asks before the header's project picker drops a prompt's unsaved changes", async () => {
    await page.goto("about:blank");
    await page.goto(`${stack.url}/#/settings/defaults`);
    const prompts = page.getByRole("region", { name: "Custom prompts" });
    await prompts.getByRole("button", { name: "New prompt" }).click();
    await prompts.getByLabel("Title", { exact: true }).fill("Half-written");
    const picker = page.getByLabel("Project", { exact: true });
    const before = await picker.inputValue();
    const other = (before === ids.main ? ids.other : ids.main)!;
    await picker.selectOption(other);
    const guard = prompts.getByRole("group", { name: "Unsaved changes" });
    await guard.getByRole("button", { name: "Keep editing" }).click();
    assert.equal(await picker.inputValue(), before, "still the project whose page asked");
    assert.equal(await prompts.getByLabel("Title", { exact: true }).inputValue(), "Half-written");
    await picker.selectOption(other);
    await guard.getByRole("button", { name: "Discard changes" }).click();
    await page.getByRole("heading", { name: "Projects" }).waitFor();
    assert.equal(await picker.inputValue(), other);
  });

  it("fits 320 px with no serious axe violation, light and dark", async () => {
    await checkNarrowInBothThemes(ui!.browser, "projects", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await card("my-project", narrow).getByRole("button", { name: "New chat with Reviewer", exact: true }).waitFor();
      await card("my-project", narrow).getByRole("img", { name: "Started with Reviewer" }).waitFor();
    });
  });
});
