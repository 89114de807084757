// Chat view fixes (issue 17) in a real Chromium: the transcript follows the stream while the reader
// is at its end, nothing widens the page at 350 px (only code scrolls, its Copy button above it),
// a failed turn shows once with its way out and Retry does not repeat the message, a refused send
// keeps its text, and chats can be searched, renamed and deleted.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";

describe("web UI: chat view fixes", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;

  before(async function () {
    ui = await startBrowserStack(this, { viewport: { width: 900, height: 700 } });
    ({ stack, page } = ui);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  async function newChat(on: Page, model: string): Promise<void> {
    await on.goto(`${stack.url}/#/`);
    await on.getByRole("button", { name: "New chat" }).click();
    await on.locator(".chat-view").waitFor();
    await chooseModel(on, model);
  }

  async function say(on: Page, text: string): Promise<void> {
    await on.getByLabel("Message").fill(text);
    await on.getByLabel("Message").press("Enter");
  }

  /** The turn has ended: Send is back. */
  const idle = (on: Page) => on.locator(".composer vscode-button", { hasText: "Send" }).waitFor();

  const transcript = (on: Page) =>
    on.locator("ol.messages").evaluate((el) => ({
      top: el.scrollTop,
      height: el.scrollHeight,
      client: el.clientHeight,
      width: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));

  /**
   * Waits until the transcript's scroll position has stopped moving (a wheel can scroll over several
   * frames, and the view hears it a frame later) away from `awayFrom`, or at the end.
   */
  const scrollSettled = (on: Page, want: { awayFrom: number } | { atEnd: true }) =>
    on.locator("ol.messages").evaluate(async (el, want) => {
      let last = Number.NaN;
      let still = 0;
      // Bounded (about 10 s of frames): the assertions that follow say what went wrong.
      for (let frames = 0; still < 2 && frames < 600; frames++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const top = el.scrollTop;
        const there = "atEnd" in want ? el.scrollHeight - top - el.clientHeight <= 4 : top !== want.awayFrom;
        still = there && top === last ? still + 1 : 0;
        last = top;
      }
    }, want);

  async function settings(body: unknown): Promise<void> {
    const response = await stack.api("PATCH", "/api/settings/app", body);
    assert.equal(response.status, 200, await response.text());
  }

  it("follows a long answer to its end, lets go when the reader scrolls up, and keeps header and composer in view", async () => {
    await newChat(page, "fake/burst");
    await say(page, "count for me");
    await page.locator(".message.assistant", { hasText: "t1999" }).waitFor();
    await idle(page);
    let at = await transcript(page);
    assert.ok(at.height > at.client * 2, "the answer is longer than the view");
    assert.ok(at.height - at.top - at.client <= 4, `at the end (${JSON.stringify(at)})`);
    const viewport = page.viewportSize()!;
    const title = (await page.locator(".chat-header h2").boundingBox())!;
    const composer = (await page.getByLabel("Message").boundingBox())!;
    assert.ok(title.y >= 0, "the title is in view");
    assert.ok(composer.y + composer.height <= viewport.height, "the composer is in view");
    assert.equal(
      await page.evaluate(() => document.documentElement.scrollHeight <= window.innerHeight),
      true,
      "the page itself does not scroll",
    );

    // Scrolled up while the next answer streams: the view stays where the reader put it.
    await chooseModel(page, "fake/slow");
    await say(page, "take your time");
    await page.locator(".message.assistant.streaming", { hasText: "Thinking out loud" }).waitFor();
    const box = (await page.locator("ol.messages").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const before = (await transcript(page)).top;
    await page.mouse.wheel(0, -1500);
    await scrollSettled(page, { awayFrom: before });
    const up = (await transcript(page)).top;
    await idle(page);
    at = await transcript(page);
    assert.ok(Math.abs(at.top - up) <= 4, `stayed where the reader scrolled (${up} → ${at.top})`);
    assert.ok(at.height - at.top - at.client > 200, "not pulled back to the end");

    // Back at the end, it follows again.
    await page.mouse.wheel(0, 100_000);
    await scrollSettled(page, { atEnd: true });
    await chooseModel(page, "fake/burst");
    await say(page, "once more");
    // The first answer may have left the DOM by now (the transcript keeps what is in view).
    await page.locator(".message.user", { hasText: "once more" }).waitFor();
    await page.locator(".message.assistant").last().filter({ hasText: "t1999" }).waitFor();
    await idle(page);
    at = await transcript(page);
    assert.ok(at.height - at.top - at.client <= 4, `at the end again (${JSON.stringify(at)})`);
  });

  it("at 350 px, a long URL and a long code line widen nothing: only the code scrolls, under its Copy bar", async () => {
    const context = await ui!.browser.newContext({ viewport: { width: 350, height: 700 } });
    try {
      const narrow = await context.newPage();
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await newChat(narrow, "fake/echo");
      const url = `https://example.com/${"very-long-path-segment/".repeat(12)}end`;
      await say(narrow, `see ${url}\n\n\`\`\`js\nconst line = "${"x".repeat(300)}";\n\`\`\``);
      const code = narrow.locator(".message.assistant pre > code");
      await code.waitFor();
      await idle(narrow);
      const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 350, `nothing scrolls sideways (page is ${width} px wide)`);
      const list = await transcript(narrow);
      assert.ok(list.width <= list.clientWidth, "the transcript does not scroll sideways");
      assert.ok(await code.evaluate((el) => el.scrollWidth > el.clientWidth), "the code line scrolls inside its block");
      const copy = (await narrow.getByRole("button", { name: "Copy code" }).boundingBox())!;
      const text = (await code.boundingBox())!;
      assert.ok(
        copy.y + copy.height <= text.y,
        `the Copy button sits above the code (button ${JSON.stringify(copy)}, code ${JSON.stringify(text)})`,
      );
      await screenshot(narrow, "chat-view-350");
      await narrow.getByRole("link", { name: "Back to chats" }).click();
      await narrow.getByLabel("Search chats").waitFor();
      const listWidth = await narrow.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(listWidth <= 350, `the chat list fits too (${listWidth} px)`);
      await screenshot(narrow, "chat-list-350");
    } finally {
      await context.close();
    }
  });

  it("shows a turn that never reached the gateway once, with its way out, and Retry does not repeat the message", async () => {
    await newChat(page, "fake/echo");
    await settings({
      chat: { autoRetryFailedSends: false },
      providers: [{ id: "gateway", baseUrl: "http://127.0.0.1:9/v1" }],
    });
    await settings({ providers: [{ id: "gateway", apiKey: "sk-fake-e2e" }] });
    await say(page, "hello over there");
    const failure = page.locator(".turn-error");
    await failure.waitFor();
    await idle(page);
    assert.equal(await failure.count(), 1, "the error shows once");
    assert.equal(await page.locator(".message.user", { hasText: "hello over there" }).count(), 1);
    assert.equal(
      await failure.getByRole("link", { name: "Settings, Providers" }).count(),
      1,
      "the way to the gateway's address",
    );
    await failure.getByRole("button", { name: "Retry" }).waitFor();
    await screenshot(page, "chat-view-failed-turn");

    await settings({ providers: [{ id: "gateway", baseUrl: stack.gateway.baseUrl }] });
    await settings({ providers: [{ id: "gateway", apiKey: "sk-fake-e2e" }] });
    await failure.getByRole("button", { name: "Retry" }).click();
    await page.locator(".message.assistant", { hasText: "You said: hello over there" }).waitFor();
    await idle(page);
    assert.equal(
      await page.locator(".message.user", { hasText: "hello over there" }).count(),
      1,
      "the message shows once after Retry",
    );
    assert.equal(await page.locator(".turn-error").count(), 0, "the error is gone");
    await page.reload();
    await page.locator(".message.assistant", { hasText: "You said: hello over there" }).waitFor();
    // On a loaded machine the answer has shown a moment before the message: wait for both before counting.
    await page.locator(".message.user", { hasText: "hello over there" }).first().waitFor();
    await idle(page);
    assert.equal(
      await page.locator(".message.user", { hasText: "hello over there" }).count(),
      1,
      "and once after a reload",
    );
  });

  it("keeps the text, and the message, when no key is set; Retry sends it once a key is saved", async () => {
    await newChat(page, "fake/echo");
    // Back to the built-in gateway URL: a base URL the user set may go without a key (a keyless
    // self-hosted server), the hosted gateway never.
    await settings({ providers: [{ id: "gateway", apiKey: null, baseUrl: null }] });
    await say(page, "keep me please");
    const failure = page.locator(".turn-error");
    await failure.waitFor();
    await idle(page);
    assert.equal(await failure.count(), 1);
    assert.match((await failure.textContent())!, /no key/);
    assert.equal(await page.getByLabel("Message").inputValue(), "keep me please", "the composer keeps the text");
    assert.equal(
      await page.locator(".message.user", { hasText: "keep me please" }).count(),
      1,
      "the message stays, unsent",
    );
    assert.equal(
      await failure.getByRole("link", { name: "Settings, Providers" }).getAttribute("href"),
      "#/settings/providers",
    );
    await screenshot(page, "chat-view-no-key");

    await settings({ providers: [{ id: "gateway", apiKey: "sk-fake-e2e" }] });
    await failure.getByRole("button", { name: "Retry" }).click();
    await page.locator(".message.assistant", { hasText: "You said: keep me please" }).waitFor();
    await idle(page);
    assert.equal(await page.locator(".message.user", { hasText: "keep me please" }).count(), 1);
    assert.equal(await page.getByLabel("Message").inputValue(), "", "sent, so the composer is empty");
    assert.equal(await page.locator(".turn-error").count(), 0);
  });

  it("searches, renames and deletes chats", async () => {
    await page.goto(`${stack.url}/#/`);
    const rows = page.locator(".chat-item");
    await rows.filter({ hasText: "keep me please" }).waitFor();
    const all = await rows.count();
    assert.ok(all >= 3);
    await page.getByLabel("Search chats").fill("KEEP me");
    await page.waitForFunction(() => document.querySelectorAll(".chat-item").length === 1);
    // The one row left (in Rename, its title is in a text field, not its text).
    const row = rows.first();
    assert.match((await row.textContent())!, /keep me please/);

    await row.getByRole("button", { name: /^More actions for / }).click();
    await page.getByRole("menuitem", { name: "Rename" }).click();
    await row.getByLabel("Chat title").fill("Kept and renamed");
    await row.getByLabel("Chat title").press("Enter");
    await page.getByLabel("Search chats").fill("renamed");
    const renamed = rows.filter({ hasText: "Kept and renamed" });
    await renamed.waitFor();
    const id = await renamed.locator(".chat-row").getAttribute("data-chat-id");
    assert.equal((await (await stack.api("GET", `/api/chats/${id}`)).json()).title, "Kept and renamed");

    const menu = renamed.getByRole("button", { name: "More actions for Kept and renamed" });
    await menu.click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = renamed.getByRole("group", { name: "Confirm delete" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    assert.equal(await renamed.count(), 1, "Cancel keeps it");
    await menu.click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await confirm.getByRole("button", { name: "Delete chat" }).click();
    await page.getByText("No chat matches").waitFor();
    assert.equal((await stack.api("GET", `/api/chats/${id}`)).status, 404);
    await page.getByLabel("Search chats").fill("");
    await page.waitForFunction((n) => document.querySelectorAll(".chat-item").length === n, all - 1);
  });
});
