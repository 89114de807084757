// The chat list, search across chats and export (issue 37, items 7 to 10) in a real Chromium against
// `parley serve`: rows with a menu of their actions (the ARIA menu pattern, by keyboard), relative
// times with the full date on hover, one-line titles, a danger-styled Delete chat, no empty chats;
// the search box finding words in messages and tool output (marks shown as text, never HTML) and
// opening the chat; Export as markdown and JSON downloads; a chat view that scrolls only its
// transcript with a tool card open; ruled markdown tables that scroll sideways at 320 px. Each
// screen at 320 and 1280 px, light and dark, with axe.
import assert from "node:assert/strict";
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";
import type { Stack } from "../helpers/stack";
import { say, startedChat } from "../helpers/started-chat";

const LONG_TITLE = `A very long chat title that goes on ${"and on ".repeat(12)}until the end`;
const TABLE = [
  "Here are the sizes:",
  "",
  "| Name | Kind | Size | Owner | Created | Changed | Notes |",
  "| --- | --- | ---: | --- | --- | --- | --- |",
  "| alpha | file | 1 | somebody | yesterday | today | the first of the rows |",
  "| beta | folder | 200 | everybody | last week | an hour ago | the second row of the table |",
].join("\n");

describe("web UI: chat list, search across chats, export", function () {
  this.timeout(240_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let browser: Browser;
  const chats: Record<string, string> = {};
  let emptyChat = "";

  const home = (on: Page = page) => on.getByRole("region", { name: "my-project", exact: true });
  const searchBox = (on: Page = page) => home(on).getByRole("searchbox", { name: "Search chats" });
  const row = (title: string, on: Page = page) =>
    home(on).locator(".chat-item", { has: on.locator(`[data-chat-id="${chats[title]}"]`) });
  const menuButton = (title: string, on: Page = page) =>
    row(title, on).getByRole("button", { name: `More actions for ${title}`, exact: true });
  const openHome = async (on: Page = page) => {
    await on.goto(`${stack.url}/#/`);
    await row("Parser plan", on).waitFor();
  };
  const openChat = async (title: string, on: Page = page) => {
    await on.goto(`${stack.url}/#/chat/${chats[title]}`);
    await on.locator(".message.assistant").first().waitFor();
  };

  before(async function () {
    ui = await startBrowserStack(this, { viewport: { width: 1280, height: 800 } });
    ({ stack, page, browser } = ui);
    await stack.api("PATCH", "/api/settings/app", { toolGates: { shell: "allow" } });
    const [project] = await (await stack.api("GET", "/api/projects")).json();
    const make = async (title: string, content: string, modelId = "fake/echo") => {
      chats[title] = await startedChat(stack, project.id, { title, modelId });
      if (content !== "hello") await say(stack, chats[title]!, content, modelId);
    };
    await make("Parser plan", "How should the tokenizer handle quotes? Use ```code``` and <b>bold</b> too.");
    await make("Release notes", "Draft the release notes for the parser.");
    await make("Sizes table", TABLE);
    await make(LONG_TITLE, "hello");
    await make("Shell run", "shell: echo findable-output; seq 1 90", "fake/tools");
    // New chat, left before its first message: not listed.
    emptyChat = (await (await stack.api("POST", `/api/projects/${project.id}/chats`, { title: "Left empty" })).json())
      .id;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await openHome();
  });

  after(() => ui?.stop());

  it("lists only chats with a message, each title on one line, with a relative time and the full date on hover", async () => {
    await openHome();
    assert.equal(await home().locator(`[data-chat-id="${emptyChat}"]`).count(), 0, "the empty chat is not listed");
    assert.equal(await home().locator(".chat-item").count(), 5);
    const time = row("Parser plan").locator("time");
    assert.equal(await time.textContent(), "just now");
    assert.match((await time.getAttribute("title"))!, /\d{4}/, "the full date on hover");
    assert.ok(Date.parse((await time.getAttribute("datetime"))!) > 0);

    const long = row(LONG_TITLE);
    const title = long.locator(".title");
    assert.equal(await title.getAttribute("title"), LONG_TITLE, "the whole title on hover");
    const cut = await title.evaluate((el) => ({
      ellipsis: getComputedStyle(el).textOverflow,
      cut: el.scrollWidth > el.clientWidth,
      lines: Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)),
    }));
    assert.deepEqual(cut, { ellipsis: "ellipsis", cut: true, lines: 1 });
    // Rename and Delete are in the row's menu, not on the row.
    assert.equal(await long.getByRole("button", { name: "Rename" }).count(), 0);
    assert.equal(await long.getByRole("button", { name: "Delete" }).count(), 0);
  });

  it("opens a row's menu by keyboard: arrows move, Escape closes onto the button, Rename works in place", async () => {
    await openHome();
    const button = menuButton("Release notes");
    assert.equal(await button.getAttribute("aria-haspopup"), "menu");
    await button.focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu", { name: "More actions for Release notes" });
    await menu.waitFor();
    assert.equal(await button.getAttribute("aria-expanded"), "true");
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    assert.equal(await focused(), "Rename", "the first item has the focus");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), "Delete");
    await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), "Rename", "wraps around");
    await page.keyboard.press("End");
    assert.equal(await focused(), "Delete");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    assert.equal(await button.evaluate((el) => el === document.activeElement), true, "focus back on the button");

    await page.keyboard.press("ArrowUp");
    await menu.waitFor();
    assert.equal(await focused(), "Delete", "↑ opens on the last item");
    await page.keyboard.press("Escape");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const field = home().getByRole("textbox", { name: "Chat title" });
    await field.waitFor();
    await field.fill("Release notes, renamed");
    await field.press("Enter");
    chats["Release notes, renamed"] = chats["Release notes"]!;
    await menuButton("Release notes, renamed").waitFor();
    assert.equal(
      await menuButton("Release notes, renamed").evaluate((el) => el === document.activeElement),
      true,
      "focus back on the row's menu after Rename",
    );
    assert.equal(
      (await (await stack.api("GET", `/api/chats/${chats["Release notes"]}`)).json()).title,
      "Release notes, renamed",
    );
  });

  it("asks before deleting, with Delete chat styled as danger and the focus on Cancel", async () => {
    await openHome();
    await menuButton("Sizes table").click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    const confirm = row("Sizes table").getByRole("group", { name: "Confirm delete" });
    const remove = confirm.getByRole("button", { name: "Delete chat" });
    await remove.waitFor();
    assert.equal(
      await confirm.getByRole("button", { name: "Cancel" }).evaluate((el) => el === document.activeElement),
      true,
    );
    // The error colour, not the primary button's: what the button paints, against a probe of each.
    const colours = await remove.evaluate((el) => {
      const probe = document.createElement("span");
      document.body.append(probe);
      probe.style.color = "var(--error)";
      const error = getComputedStyle(probe).color;
      probe.style.color = "var(--button-bg)";
      const primary = getComputedStyle(probe).color;
      probe.remove();
      const painted = [el, ...Array.from(el.shadowRoot?.querySelectorAll("*") ?? [])]
        .map((node) => getComputedStyle(node as Element).backgroundColor)
        .find((colour) => colour !== "rgba(0, 0, 0, 0)");
      return { painted, error, primary };
    });
    assert.equal(colours.painted, colours.error, JSON.stringify(colours));
    assert.notEqual(colours.error, colours.primary);
    await screenshot(page, "chat-list-delete-confirm-1280");
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    assert.equal((await stack.api("GET", `/api/chats/${chats["Sizes table"]}`)).status, 200, "Cancel keeps it");
  });

  it("finds words in messages and tool output, marks them as text (never as HTML), and opens the chat", async () => {
    await openHome();
    await searchBox().fill("tokeniz");
    const found = home().getByRole("region", { name: "Found in messages" });
    const hit = found.getByRole("link").filter({ hasText: "Parser plan" }).first();
    await hit.waitFor();
    assert.equal(await hit.locator("mark").first().textContent(), "tokenizer");
    // The message's own markup is text in the snippet.
    assert.match((await hit.locator(".snippet").textContent())!, /<b>bold<\/b>/);
    assert.equal(await hit.locator(".snippet b").count(), 0, "no element made from the message's text");
    assert.equal(await hit.locator("time").textContent(), "just now");

    // A shell run's output is searched too.
    await searchBox().fill("findable");
    await found.getByRole("link").filter({ hasText: "Shell run" }).first().waitFor();

    // FTS5 syntax is text: no error, and "No chat matches" when nothing holds it.
    for (const query of ['"NEAR(', "tokenizer AND", "*", "-"]) {
      await searchBox().fill(query);
      await home()
        .getByRole("status")
        .filter({ hasText: /No chat matches|^$/ })
        .first()
        .waitFor();
      assert.equal(await home().locator(".status .error").count(), 0, `no error for ${query}`);
    }
    await searchBox().fill("nothing-holds-this-word");
    await home().getByText("No chat matches “nothing-holds-this-word”.").waitFor();

    await searchBox().fill("tokenizer");
    await hit.click();
    // The chat opens on the message found, outlined as find in chat outlines it.
    await page.waitForURL(new RegExp(`#/chat/${chats["Parser plan"]}/m/m_[\\w-]+$`));
    const outlined = page.locator("ol.messages > li[data-found]");
    await outlined.waitFor();
    assert.match((await outlined.textContent())!, /tokenizer/);
  });

  it("exports the chat as markdown and as JSON from its header", async () => {
    await openChat("Parser plan");
    for (const [item, name] of [
      ["Markdown (.md)", "Parser plan.md"],
      ["JSON (.json)", "Parser plan.json"],
    ] as const) {
      await page.getByRole("button", { name: "Export", exact: true }).click();
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("menuitem", { name: item }).click(),
      ]);
      assert.equal(download.suggestedFilename(), name);
      const text = fs.readFileSync((await download.path())!, "utf8");
      if (name.endsWith(".md")) {
        assert.match(text, /^# Parser plan\n/);
        assert.ok(text.includes("## You\n\nHow should the tokenizer handle quotes?"), text);
        assert.ok(text.includes("## Assistant"));
      } else {
        const document = JSON.parse(text);
        assert.equal(document.chat.title, "Parser plan");
        assert.ok(document.messages.some((m: { content: string }) => m.content.includes("tokenizer")));
      }
    }
    // By keyboard: ↓ on the button opens the menu on its first item.
    await page.getByRole("button", { name: "Export", exact: true }).focus();
    await page.keyboard.press("ArrowDown");
    await page.getByRole("menu", { name: "Export" }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Markdown (.md)");
    await page.keyboard.press("Escape");
  });

  it("scrolls only the transcript of a chat, a tool card open or not (no second scroll bar)", async () => {
    for (const viewport of [
      { width: 320, height: 600 },
      { width: 1280, height: 700 },
    ]) {
      const context = await browser.newContext({ viewport });
      try {
        const narrow = await context.newPage();
        await narrow.goto(`${stack.url}/?token=${stack.token}`);
        await openChat("Shell run", narrow);
        const card = narrow.getByRole("group", { name: "shell", exact: true }).first();
        await card.getByRole("button", { expanded: false }).first().click();
        await card.getByRole("button", { expanded: true }).first().waitFor();
        const sizes = await narrow.evaluate(() => ({
          page: document.scrollingElement!.scrollHeight,
          window: window.innerHeight,
          app: document.querySelector(".app")!.getBoundingClientRect().height,
          transcript: (() => {
            const list = document.querySelector("ol.messages")!;
            return list.scrollHeight > list.clientHeight;
          })(),
        }));
        assert.equal(
          sizes.page,
          sizes.window,
          `${viewport.width} px: the page does not scroll (${JSON.stringify(sizes)})`,
        );
        assert.equal(Math.round(sizes.app), sizes.window, "the shell is the window's height");
        assert.ok(sizes.transcript, "the transcript is what scrolls");
        await screenshot(narrow, `chat-view-open-card-${viewport.width}`);
      } finally {
        await context.close();
      }
    }
  });

  it("draws markdown tables with borders and a shaded header; a wide one scrolls sideways at 320 px", async () => {
    const context = await browser.newContext({ viewport: { width: 320, height: 700 } });
    try {
      const narrow = await context.newPage();
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await openChat("Sizes table", narrow);
      const table = narrow.locator(".message.assistant table").first();
      await table.waitFor();
      const look = await table.evaluate((el) => {
        const th = el.querySelector("th")!;
        const td = el.querySelector("td")!;
        const style = getComputedStyle(th);
        return {
          border: `${getComputedStyle(td).borderTopWidth} ${getComputedStyle(td).borderTopStyle}`,
          headerBorder: `${style.borderBottomWidth} ${style.borderBottomStyle}`,
          headerBackground: style.backgroundColor,
          cellBackground: getComputedStyle(td).backgroundColor,
          scrolls: el.scrollWidth > el.clientWidth,
          right: getComputedStyle(el.querySelectorAll("td")[2]!).textAlign,
        };
      });
      assert.equal(look.border, "1px solid");
      assert.equal(look.headerBorder, "1px solid");
      assert.notEqual(look.headerBackground, look.cellBackground, "the header is shaded");
      assert.ok(look.scrolls, "the wide table scrolls in its box");
      assert.equal(await table.getAttribute("tabindex"), "0", "and takes the focus, to be scrolled by keys");
      assert.equal(look.right, "right", "a right-aligned column stays so");
      const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `the page does not widen (${width} px)`);
      await screenshot(narrow, "markdown-table-320");
    } finally {
      await context.close();
    }
  });

  it("at 320 px in light and dark: the list with its menu and search results, and a chat with Export open, pass axe", async () => {
    await checkNarrowInBothThemes(browser, "chat-list-menu", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await openHome(narrow);
      await menuButton(LONG_TITLE, narrow).click();
      await narrow.getByRole("menu").waitFor();
    });
    await checkNarrowInBothThemes(browser, "chat-search-results", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await openHome(narrow);
      await searchBox(narrow).fill("parser");
      await home(narrow).getByRole("region", { name: "Found in messages" }).getByRole("link").first().waitFor();
    });
    await checkNarrowInBothThemes(browser, "chat-export-menu", async (narrow) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await openChat("Sizes table", narrow);
      await narrow.getByRole("button", { name: "Export", exact: true }).click();
      await narrow.getByRole("menu", { name: "Export" }).waitFor();
    });
  });

  it("at 1280 px in light and dark: the same screens pass axe", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      try {
        const wide = await context.newPage();
        await wide.goto(`${stack.url}/?token=${stack.token}`);
        await openHome(wide);
        await searchBox(wide).fill("parser");
        await home(wide).getByRole("region", { name: "Found in messages" }).getByRole("link").first().waitFor();
        await menuButton("Parser plan", wide).click();
        await wide.getByRole("menu").waitFor();
        await screenshot(wide, `chat-list-search-1280-${colorScheme}`);
        assert.deepEqual(await seriousViolations(wide), [], `${colorScheme}: the list`);
        await openChat("Sizes table", wide);
        await wide.getByRole("button", { name: "Export", exact: true }).click();
        await wide.getByRole("menu", { name: "Export" }).waitFor();
        await screenshot(wide, `chat-export-1280-${colorScheme}`);
        assert.deepEqual(await seriousViolations(wide), [], `${colorScheme}: the chat`);
      } finally {
        await context.close();
      }
    }
  });
});
