// A long transcript in a real Chromium (issue 36): a 2,000-message chat opens with a screenful of
// items in the DOM, reads older pages as the reader scrolls up, is walked message by message with
// the arrow keys and searched with find in chat, into parts not in the DOM; the live answer keeps
// its finished blocks' nodes; a 5 MB answer shows its start and "Show all" without freezing.
import assert from "node:assert/strict";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { fillChat, lastMessageMark } from "../helpers/transcript-store";
import { openSqlite } from "../../src/platform/sqlite-binding";

const MESSAGES = 2_000;

describe("web UI: a long transcript", function () {
  this.timeout(240_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let browser: Browser;
  let projectId: string;
  let longChat: string;
  let store: string;

  const json = async (method: string, route: string, body?: unknown) => {
    const res = await stack.api(method, route, body);
    assert.ok(res.ok, `${method} ${route}: ${res.status} ${await res.clone().text()}`);
    return res.json();
  };
  const newChat = async (modelId: string) =>
    ((await json("POST", `/api/projects/${projectId}/chats`, { modelId })) as { id: string }).id;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, browser } = ui);
    projectId = ((await (await stack.api("GET", "/api/projects")).json()) as { id: string }[])[0]!.id;
    store = path.join(path.dirname(stack.projectDir), "home", "store.sqlite");
    longChat = await newChat("fake/echo");
    fillChat(store, longChat, MESSAGES, "fake/echo", "LONG");
  });
  after(() => ui?.stop());

  async function openChat(chatId: string, width = 1280, colorScheme: "light" | "dark" = "light") {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
    const page = await context.newPage();
    const reads: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === `/api/chats/${chatId}`) reads.push(new URL(request.url()).search);
    });
    await page.goto(`${stack.url}/?token=${stack.token}#/chat/${chatId}`);
    await page.locator(".chat-view").waitFor();
    return { page, reads, close: () => context.close() };
  }
  const items = (page: Page) => page.locator("ol.messages > li[data-key]");

  it("opens 2,000 messages with a screenful in the DOM, and reads older pages while scrolling up", async () => {
    const { page, reads, close } = await openChat(longChat);
    try {
      await page.getByText(lastMessageMark("LONG")).waitFor();
      const rendered = await items(page).count();
      assert.ok(rendered > 0 && rendered < 200, `${rendered} message elements in the DOM`);
      assert.ok(
        reads.every((search) => /limit=\d+/.test(search)),
        `the whole chat is never asked for: ${reads.join(" ")}`,
      );
      // Up to the first message: older pages come as the reader nears the top (the list's size is
      // unknown, -1, until none are left).
      await page.locator("ol.messages").evaluate(async (list) => {
        for (let frame = 0; frame < 6_000; frame++) {
          list.scrollTop = Math.max(0, list.scrollTop - 2_000);
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const first = list.querySelector(":scope > li[data-key]");
          if (
            list.scrollTop === 0 &&
            first?.getAttribute("aria-posinset") === "1" &&
            first.getAttribute("aria-setsize") !== "-1"
          )
            return;
        }
      });
      await page.getByText("Question 0: how does part 0 of the store work").waitFor();
      assert.ok(reads.filter((search) => search.includes("before=")).length >= 5, reads.join(" "));
      assert.ok((await items(page).count()) < 200, "still only what is in view");
      // Everything read: the list says how many items it has.
      assert.ok(Number(await items(page).first().getAttribute("aria-setsize")) > 1_000);
    } finally {
      await close();
    }
  });

  it("walks messages with the arrow keys, into ones that were not in the DOM", async () => {
    const { page, close } = await openChat(longChat);
    try {
      await page.getByText(lastMessageMark("LONG")).waitFor();
      await page.locator("ol.messages").focus();
      await page.keyboard.press("ArrowUp");
      await page.waitForFunction(() => document.activeElement?.hasAttribute("aria-posinset"));
      const focusedKey = () => page.evaluate(() => document.activeElement?.getAttribute("data-key") ?? "");
      /**
       * One press: the focus moves to the item just before (or after) the one it was on. Positions are
       * compared as they stand after the press, since older pages may come in on the way up.
       */
      const press = async (key: "ArrowUp" | "ArrowDown") => {
        const from = await focusedKey();
        await page.keyboard.press(key);
        await page
          .waitForFunction(
            ({ from, step }) => {
              const now = document.activeElement;
              const before = document.querySelector(`ol.messages > li[data-key="${CSS.escape(from)}"]`);
              return (
                !!now?.getAttribute("data-key") &&
                now !== before &&
                !!before &&
                Number(now.getAttribute("aria-posinset")) === Number(before.getAttribute("aria-posinset")) + step
              );
            },
            { from, step: key === "ArrowUp" ? -1 : 1 },
            { timeout: 15_000 },
          )
          .catch(async (error: Error) => {
            // What the page looked like when the move did not happen: a flaky failure can be read.
            const state = await page.evaluate((from) => {
              const list = document.querySelector("ol.messages");
              const now = document.activeElement;
              const rendered = Array.from(list?.querySelectorAll(":scope > li[data-key]") ?? []);
              return {
                focused: now === document.body ? "body" : `${now?.tagName} ${now?.getAttribute("data-key") ?? ""}`,
                focusedAt: now?.getAttribute("aria-posinset"),
                fromRenderedAt: rendered
                  .find((li) => li.getAttribute("data-key") === from)
                  ?.getAttribute("aria-posinset"),
                rendered: `${rendered[0]?.getAttribute("aria-posinset")}..${rendered.at(-1)?.getAttribute("aria-posinset")} of ${rendered[0]?.getAttribute("aria-setsize")}`,
                scrollTop: list?.scrollTop,
                busy: list?.getAttribute("aria-busy"),
              };
            }, from);
            throw new Error(`${key} from ${from} did not move the focus: ${JSON.stringify(state)} (${error.message})`);
          });
      };
      assert.ok((await focusedKey()) !== "", "focus is on an item");
      // 20 items up, most of them not in the DOM when the walk began, and one back down.
      const seen = new Set<string>([await focusedKey()]);
      for (let i = 0; i < 20; i++) {
        await press("ArrowUp");
        seen.add(await focusedKey());
      }
      assert.equal(seen.size, 21, "a different item each time");
      await press("ArrowDown");
    } finally {
      await close();
    }
  });

  it("takes Up on the first loaded message once the older page it waits for has come", async () => {
    const { page, close } = await openChat(longChat);
    // Older pages are held until released: the reader reaches the top of what is loaded first, as on
    // a loaded machine.
    const held: (() => Promise<void>)[] = [];
    await page.route(`**/api/chats/${longChat}?*`, (route) => {
      if (new URL(route.request().url()).searchParams.has("before")) held.push(() => route.continue());
      else void route.continue();
    });
    try {
      await page.getByText(lastMessageMark("LONG")).waitFor();
      await page.locator("ol.messages").focus();
      const focused = () =>
        page.evaluate(() => ({
          key: document.activeElement?.getAttribute("data-key") ?? "",
          at: Number(document.activeElement?.getAttribute("aria-posinset")),
        }));
      // Up, one item at a time, to the first loaded one.
      for (let presses = 0; presses < 500; presses++) {
        const before = await focused();
        if (before.at === 1) break;
        await page.keyboard.press("ArrowUp");
        await page.waitForFunction(
          (from) =>
            !!document.activeElement?.getAttribute("data-key") &&
            document.activeElement.getAttribute("data-key") !== from,
          before.key,
        );
      }
      const top = await focused();
      assert.equal(top.at, 1, "on the first loaded message");
      await page.keyboard.press("ArrowUp");
      await page.waitForFunction(() => document.querySelector("ol.messages")?.getAttribute("aria-busy") === "true");
      for (const release of held.splice(0)) await release();
      await page.unroute(`**/api/chats/${longChat}?*`);
      // The page came in front: the move goes on to the message just before.
      await page.waitForFunction((from) => {
        const now = document.activeElement;
        const was = document.querySelector(`ol.messages > li[data-key="${CSS.escape(from)}"]`);
        return (
          !!now?.getAttribute("data-key") &&
          !!was &&
          Number(now.getAttribute("aria-posinset")) === Number(was.getAttribute("aria-posinset")) - 1
        );
      }, top.key);
    } finally {
      await close();
    }
  });

  it("finds a message far from the end, reading older pages when asked, and scrolls to it (axe clean)", async () => {
    for (const [width, scheme] of [
      [320, "light"],
      [1280, "dark"],
    ] as const) {
      const { page, close } = await openChat(longChat, width, scheme);
      try {
        await page.getByText(lastMessageMark("LONG")).waitFor();
        await page.keyboard.press("Control+f");
        const field = page.getByRole("searchbox", { name: "Find" });
        await field.fill("Question 7: how does part 1");
        await page.getByRole("search", { name: "Find in chat" }).getByText("No match").waitFor();
        await page.getByRole("button", { name: "Search older messages too" }).click();
        await page
          .getByRole("search", { name: "Find in chat" })
          .getByText(/^1 of 1$/)
          .waitFor();
        const found = page.locator("ol.messages > li[data-found]");
        await found.waitFor();
        assert.match((await found.textContent()) ?? "", /Question 7: how does part 1/);
        assert.ok(await found.isVisible());
        assert.deepEqual(await seriousViolations(page), [], `find at ${width} px, ${scheme}`);
        await screenshot(page, `transcript-find-${width}-${scheme}`);
        await field.press("Escape");
        assert.equal(await page.getByRole("search", { name: "Find in chat" }).count(), 0);
      } finally {
        await close();
      }
    }
  });

  it("keeps the live answer's finished blocks as the same nodes while later deltas arrive", async () => {
    const chatId = await newChat("fake/long-markdown");
    const { page, close } = await openChat(chatId, 900);
    try {
      await page.getByLabel("Message").fill("markdown: 60 1500 4");
      await page.getByLabel("Message").press("Enter");
      const live = page.locator(".message.assistant.streaming .md-block");
      await live.first().waitFor();
      await page.evaluate(() => {
        (window as unknown as { firstBlock: Element }).firstBlock = document.querySelector(
          ".message.assistant.streaming .md-block",
        )!;
      });
      const blocksThen = await live.count();
      await page.waitForFunction(
        (then) => document.querySelectorAll(".message.assistant.streaming .md-block").length > then + 5,
        blocksThen,
      );
      const same = await page.evaluate(
        () =>
          (window as unknown as { firstBlock: Element }).firstBlock ===
            document.querySelector(".message.assistant.streaming .md-block") &&
          (window as unknown as { firstBlock: Element }).firstBlock.isConnected,
      );
      assert.equal(same, true, "the first finished block is the same DOM node");
      await page.locator(".composer vscode-button", { hasText: "Send" }).waitFor({ timeout: 60_000 });
    } finally {
      await close();
    }
  });

  it("highlights a finished code block that names its language, legible in light and dark (axe)", async () => {
    const chatId = await newChat("fake/echo");
    for (const scheme of ["light", "dark"] as const) {
      const { page, close } = await openChat(chatId, 320, scheme);
      try {
        if (scheme === "light") {
          await page
            .getByLabel("Message")
            .fill(
              "Some code:\n\n```ts\nconst answer: number = 42; // the answer\nfunction greet(name: string) {\n  return `hi ${name}`;\n}\n```",
            );
          await page.getByLabel("Message").press("Enter");
        }
        const code = page.locator('.message.assistant code[data-highlight="ts"]').last();
        await code.waitFor();
        assert.ok((await code.locator(".hljs-keyword").count()) >= 2, "keywords are marked");
        assert.ok((await code.locator(".hljs-comment").count()) >= 1);
        assert.match((await code.textContent()) ?? "", /const answer: number = 42;/, "the code reads the same");
        assert.deepEqual(await seriousViolations(page), [], `highlighted code, ${scheme}`);
        await screenshot(page, `transcript-code-320-${scheme}`);
      } finally {
        await close();
      }
    }
  });

  it("highlights a large code block in a worker, off the main thread", async () => {
    const chatId = await newChat("fake/echo");
    fillChat(store, chatId, 2, "fake/echo", "CODE");
    const lines = Array.from({ length: 1_500 }, (_, i) => `const value${i}: number = ${i}; // line ${i}`);
    const answer = `A big file:\n\n\`\`\`ts\n${lines.join("\n")}\n\`\`\``;
    assert.ok(answer.length > 40_000);
    const db = openSqlite(store);
    try {
      db.prepare("UPDATE messages SET content = ? WHERE chat_id = ? AND role = 'assistant'").run(answer, chatId);
    } finally {
      db.close();
    }
    const { page, close } = await openChat(chatId, 900);
    try {
      const code = page.locator('.message.assistant code[data-highlight="ts"]');
      await code.waitFor({ timeout: 60_000 });
      assert.ok((await code.locator(".hljs-keyword").count()) >= 1_500);
      assert.match((await code.textContent()) ?? "", /const value1499: number = 1499;/);
    } finally {
      await close();
    }
  });

  it("follows a turn whose message and answer are each many screens tall to its end", async () => {
    const chatId = await newChat("fake/echo");
    const { page, close } = await openChat(chatId, 900);
    try {
      const lines = Array.from({ length: 800 }, (_, i) => `const value${i}: number = ${i};`);
      await page.getByLabel("Message").fill(`Big:\n\n\`\`\`ts\n${lines.join("\n")}\n\`\`\``);
      await page.getByLabel("Message").press("Enter");
      await page.locator(".composer vscode-button", { hasText: "Send" }).waitFor({ timeout: 120_000 });
      // The stored answer replaced the live one: the view is at its end, its code highlighted.
      const code = page.locator('.message.assistant code[data-highlight="ts"]');
      await code.waitFor();
      await page.waitForFunction(() => {
        const list = document.querySelector("ol.messages")!;
        return list.scrollHeight - list.scrollTop - list.clientHeight <= 48;
      });
    } finally {
      await close();
    }
  });

  it("shows a 5 MB answer's start and Show all, and stays responsive", async () => {
    const chatId = await newChat("fake/echo");
    fillChat(store, chatId, 2, "fake/echo", "HUGE");
    const db = openSqlite(store);
    try {
      const huge = `${"A line of a very long answer, again and again. ".repeat(110_000)}\n\nThe very end.`;
      db.prepare("UPDATE messages SET content = ? WHERE chat_id = ? AND role = 'assistant'").run(huge, chatId);
    } finally {
      db.close();
    }
    const { page, close } = await openChat(chatId, 900);
    try {
      const showAll = page.getByRole("button", { name: /^Show all \(\d+\.\d MB more\)$/ });
      await showAll.waitFor();
      // Only the start is in the page: about 200 KB of the 5 MB.
      const shown = await page
        .locator(".message.assistant .markdown")
        .last()
        .evaluate((el) => el.textContent?.length ?? 0);
      assert.ok(shown > 100_000 && shown < 400_000, `${shown} characters shown`);
      assert.equal(await page.getByText("The very end.").count(), 0, "the end waits for Show all");
    } finally {
      await close();
    }
  });
});
