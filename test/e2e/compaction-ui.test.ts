// Compaction in a real Chromium (contract 7.3): "Compact now" in the context meter puts a card with
// the summary in the transcript, Edit changes what the next request sends, Undo compaction takes it
// back; a turn that compacts itself shows the card live while the meter moves; Compact now says why
// it could not; and Settings, App defaults, Long sessions saves and refuses in words. At 320 px in
// light and dark (and 1280 px), with axe finding nothing serious.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { SCREENSHOTS, screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { until } from "../helpers/poll";
import { readEvents } from "../helpers/sse";
import type { Stack } from "../helpers/stack";

type Wire = { messages: { role: string; content: unknown }[]; tools?: unknown[] };

describe("web UI: compaction", function () {
  this.timeout(240_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let browser: Browser;
  let projectId: string;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, browser } = ui);
    projectId = ((await (await stack.api("GET", "/api/projects")).json()) as { id: string }[])[0]!.id;
  });
  after(() => ui?.stop());

  const json = async (method: string, route: string, body?: unknown) => {
    const res = await stack.api(method, route, body);
    assert.ok(res.ok, `${method} ${route}: ${res.status} ${await res.clone().text()}`);
    return res.status === 204 ? undefined : res.json();
  };
  /** What the fake gateway was sent, oldest first (it runs in a process of its own). */
  const completions = async () =>
    (await (await fetch(`${new URL(stack.gateway.baseUrl).origin}/_test/completions`)).json()) as Wire[];

  async function newChat(modelId: string): Promise<string> {
    return ((await json("POST", `/api/projects/${projectId}/chats`, { modelId })) as { id: string }).id;
  }
  async function turn(chatId: string, content: string): Promise<void> {
    const res = await stack.api("POST", `/api/chats/${chatId}/messages/stream`, { content });
    assert.equal(res.status, 200, await res.clone().text());
    await readEvents(res);
  }
  /** A chat with older history to summarise: a needle first, then four long turns. */
  async function chatWithHistory(): Promise<string> {
    const chatId = await newChat("fake/tools");
    await turn(chatId, "Remember this.\nneedle: the owl is named Ada");
    for (let i = 0; i < 4; i++) await turn(chatId, `turn ${i} ${"words and more words ".repeat(100)}`);
    return chatId;
  }

  async function open(
    width: number,
    colorScheme: "light" | "dark",
    hash = "",
  ): Promise<{ page: Page; close(): Promise<void> }> {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
    const page = await context.newPage();
    await page.goto(`${stack.url}/?token=${stack.token}${hash}`);
    return { page, close: () => context.close() };
  }
  async function openChat(width: number, colorScheme: "light" | "dark", chatId: string) {
    const opened = await open(width, colorScheme, `#/chat/${chatId}`);
    await opened.page.locator(".chat-view").waitFor();
    return opened;
  }

  const meterOf = (page: Page) => page.getByRole("region", { name: "Context" });
  const meterFigure = (page: Page) => meterOf(page).locator(".figure").textContent();
  const cardsOf = (page: Page) => page.getByRole("group", { name: "Context compacted" });
  /** The transcript's items in order ("C" for a compaction card, else the text), scrolled through top to bottom. */
  const itemsInOrder = (page: Page) =>
    page.locator("ol.messages").evaluate(async (list) => {
      const items = new Map<string, string>();
      list.scrollTop = 0;
      for (let guard = 0; guard < 400; guard++) {
        // Two frames: the window moves, then the items it brought are measured.
        for (let f = 0; f < 2; f++) await new Promise((resolve) => requestAnimationFrame(resolve));
        for (const li of Array.from(list.querySelectorAll(":scope > li[data-key]")))
          if (!items.has(li.getAttribute("data-key")!))
            items.set(
              li.getAttribute("data-key")!,
              li.classList.contains("compaction-item") ? "C" : (li.textContent ?? ""),
            );
        if (list.scrollTop + list.clientHeight >= list.scrollHeight - 2) break;
        list.scrollTop += list.clientHeight * 0.8;
      }
      return [...items.values()];
    });
  async function openMeter(page: Page): Promise<Locator> {
    const toggle = meterOf(page).getByRole("button", { name: /Context/ });
    await toggle.filter({ hasText: /tokens/ }).waitFor();
    if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
    return meterOf(page);
  }
  /** Sends a message from the composer and waits for the fake's answer to it. */
  async function say(page: Page, text: string, answer: string | RegExp = `You said: ${text}`): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant:not(.streaming)", { hasText: answer }).waitFor({ timeout: 120_000 });
    await page.locator(".composer vscode-button", { hasText: "Send" }).waitFor();
  }
  async function noSidewaysScroll(page: Page, width: number, what: string) {
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(scrollWidth <= width, `${what}: nothing sticks out sideways (page is ${scrollWidth} px wide)`);
  }
  /** Also under /tmp/shots, where a person looks at them. */
  async function shot(page: Page, name: string) {
    await screenshot(page, name);
    fs.mkdirSync("/tmp/shots", { recursive: true });
    fs.copyFileSync(path.join(SCREENSHOTS, `${name}.png`), `/tmp/shots/${name}.png`);
  }

  for (const colorScheme of ["light", "dark"] as const) {
    it(`at 320 px, ${colorScheme}: Compact now shows the card; Edit changes what is sent; Undo takes it back`, async () => {
      const chatId = await chatWithHistory();
      const { page, close } = await openChat(320, colorScheme, chatId);
      try {
        const meter = await openMeter(page);
        const before = await meterFigure(page);
        const compactNow = meter.getByRole("button", { name: "Compact now" });
        // Recorded in the page as it happens: the request is quick against the fake.
        await page.evaluate(`(() => {
          window.compacting = [];
          new MutationObserver(() => {
            const status = document.querySelector(".compact-now [role=status]")?.textContent ?? "";
            const button = document.querySelector(".compact-now vscode-button");
            if (status === "Compacting…") window.compacting.push(button?.disabled ? "disabled" : "enabled");
          }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
        })()`);
        await compactNow.click();
        await meter
          .getByRole("status")
          .filter({ hasText: /^Compacted: [\d,]+ → [\d,]+ tokens\.$/ })
          .waitFor();

        const compacting = (await page.evaluate("window.compacting")) as string[];
        assert.ok(compacting.length > 0, "it said Compacting… meanwhile");
        assert.ok(!compacting.includes("enabled"), "the button waited meanwhile");
        const card = cardsOf(page);
        await card.waitFor();
        assert.equal(await card.count(), 1);
        await card.getByText("Compacted on request").waitFor();
        assert.match((await card.locator(".figures").textContent())!, /^[\d,]+ → [\d,]+ tokens/);
        // A long summary starts collapsed behind a disclosure; opened, it reads whole.
        const more = card.getByRole("button", { name: "Show the whole summary" });
        if (await more.count()) {
          assert.equal(await more.getAttribute("aria-expanded"), "false");
          await more.click();
          assert.equal(await card.getByRole("button", { name: "Show less" }).getAttribute("aria-expanded"), "true");
        }
        await card.getByText(/the owl is named Ada/).waitFor();
        // The meter was read again: the summary now stands for the older part.
        await meterOf(page).locator(".figure").filter({ hasNotText: before! }).waitFor();
        await noSidewaysScroll(page, 320, "the chat with its card");
        await shot(page, `compaction-card-320-${colorScheme}`);
        const violations = await seriousViolations(page);
        assert.deepEqual(violations, [], `${colorScheme}, the card: ${JSON.stringify(violations, null, 2)}`);

        // Edit: a labelled box that takes focus; Escape leaves it, focus back on Edit.
        await card.getByRole("button", { name: "Edit" }).click();
        const box = card.getByRole("textbox", { name: "Summary" });
        await page.waitForFunction(() => document.activeElement?.tagName === "TEXTAREA");
        await box.press("Escape");
        await box.waitFor({ state: "detached" });
        await page.waitForFunction(() => document.activeElement?.textContent?.trim() === "Edit");
        // Checked before it is sent, then saved; the next request sends it.
        await card.getByRole("button", { name: "Edit" }).click();
        assert.match(await box.inputValue(), /the owl is named Ada/);
        await box.fill("   ");
        await card.getByRole("button", { name: "Save" }).click();
        await card.getByRole("alert").filter({ hasText: "The summary is empty" }).waitFor();
        assert.equal(await box.getAttribute("aria-invalid"), "true");
        await noSidewaysScroll(page, 320, "the summary editor");
        await shot(page, `compaction-edit-320-${colorScheme}`);
        assert.deepEqual(await seriousViolations(page), [], "the editor");
        // Long enough to start collapsed: a disclosure opens it.
        const facts = Array.from({ length: 12 }, (_, i) => `- fact ${i + 1}: kept by hand`).join("\n");
        await box.fill(`Edited by hand.\n\nneedle: the cat is named Bo\n\n## Facts to keep\n${facts}`);
        await card.getByRole("button", { name: "Save" }).click();
        const whole = card.getByRole("button", { name: "Show the whole summary" });
        await whole.waitFor();
        assert.equal(await card.getByRole("textbox").count(), 0, "the editor closed");
        assert.equal(await whole.getAttribute("aria-expanded"), "false");
        await card.getByText(/summary edited/).waitFor();
        await shot(page, `compaction-collapsed-320-${colorScheme}`);
        await whole.click();
        assert.equal(await card.getByRole("button", { name: "Show less" }).getAttribute("aria-expanded"), "true");
        await card.getByText("fact 12: kept by hand").waitFor();
        await card.getByText("the cat is named Bo").waitFor();
        assert.equal(await card.getByText(/the owl is named Ada/).count(), 0);

        const sentBefore = (await completions()).length;
        await say(page, "and now?");
        const sent = (await completions()).slice(sentBefore).filter((r) => r.tools);
        assert.ok(sent.length >= 1, "the turn reached the gateway");
        assert.ok(JSON.stringify(sent.at(-1)!.messages).includes("Edited by hand."), "the edited summary was sent");
        assert.ok(!JSON.stringify(sent.at(-1)!.messages).includes("turn 0 words"), "the covered turns were not");

        // Undo: asked in place, then the card goes and the whole conversation is sent again.
        await card.getByRole("button", { name: "Undo compaction" }).click();
        const confirm = card.getByRole("group", { name: "Confirm undo" });
        await confirm.getByText("The whole conversation will be sent again").waitFor();
        await confirm.getByRole("button", { name: "Keep it" }).click();
        await confirm.waitFor({ state: "detached" });
        await page.waitForFunction(() => document.activeElement?.textContent?.trim() === "Undo compaction");
        await card.getByRole("button", { name: "Undo compaction" }).click();
        await shot(page, `compaction-undo-320-${colorScheme}`);
        await confirm.getByRole("button", { name: "Yes, undo" }).click();
        await card.waitFor({ state: "detached" });
        assert.equal(await cardsOf(page).count(), 0);
        const stored = (await json("GET", `/api/chats/${chatId}`)) as { messages: { role: string }[] };
        assert.ok(!stored.messages.some((m) => m.role === "compaction"), "the entry is gone on the server");
        const sentAfter = (await completions()).length;
        await say(page, "again");
        const last = (await completions())
          .slice(sentAfter)
          .filter((r) => r.tools)
          .at(-1)!;
        assert.ok(JSON.stringify(last.messages).includes("turn 0 words"), "the covered turns are sent again");
      } finally {
        await close();
      }
    });
  }

  it("says in words why Compact now could not, and a failed summary changes nothing", async () => {
    // Nothing older to summarise: 409.
    const fresh = await newChat("fake/tools");
    await turn(fresh, "hi");
    {
      const { page, close } = await openChat(320, "light", fresh);
      try {
        const meter = await openMeter(page);
        await meter.getByRole("button", { name: "Compact now" }).click();
        await meter
          .getByRole("alert")
          .filter({ hasText: /^Nothing to compact yet/ })
          .waitFor();
        assert.equal(await cardsOf(page).count(), 0);
      } finally {
        await close();
      }
    }
    // A compaction model the gateway does not have: the summary fails, 502, and the chat is as it was.
    const chatId = await chatWithHistory();
    await json("PATCH", "/api/settings/app", { chat: { compaction: { model: "fake/no-such-model" } } });
    try {
      const { page, close } = await openChat(320, "dark", chatId);
      try {
        const meter = await openMeter(page);
        await meter.getByRole("button", { name: "Compact now" }).click();
        const status = meter.getByRole("alert").filter({ hasText: /^Compaction failed, the chat is as it was/ });
        await status.waitFor();
        assert.match((await status.textContent())!, /no-such-model/);
        assert.equal(await cardsOf(page).count(), 0);
        await noSidewaysScroll(page, 320, "the failure");
        await shot(page, "compaction-failed-320-dark");
      } finally {
        await close();
      }
    } finally {
      await json("PATCH", "/api/settings/app", { chat: { compaction: { model: null } } });
    }
  });

  it("shows a compaction live in the turn that made it, while the meter moves, then at its stored place", async () => {
    await json("PATCH", "/api/settings/app", { toolGates: { file: "allow" } });
    const chatId = await newChat("fake/small-context");
    const { page, close } = await openChat(320, "light", chatId);
    try {
      await page.getByLabel("Message").waitFor();
      await openMeter(page);
      // Recorded in the page as it happens: what showed while the Stop button did.
      // A script as text: the test's bundler would wrap named functions in a helper the page lacks.
      await page.evaluate(`(() => {
        const seen = { liveCard: false, liveCardActions: false, figures: [], compactNow: [] };
        window.seen = seen;
        new MutationObserver(() => {
          const streaming = [...document.querySelectorAll(".composer vscode-button")].some(
            (b) => b.textContent.trim() === "Stop",
          );
          if (!streaming) return;
          const card = document.querySelector('[role="group"][aria-label="Context compacted"]');
          if (card) {
            seen.liveCard = true;
            if (card.textContent.includes("Undo compaction")) seen.liveCardActions = true;
          }
          const compactNow = document.querySelector(".compact-now vscode-button");
          if (compactNow) seen.compactNow.push(compactNow.disabled ? "disabled" : "enabled");
          const figure = document.querySelector(".context-meter .figure")?.textContent;
          if (figure && seen.figures.at(-1) !== figure) seen.figures.push(figure);
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      })()`);
      await say(page, "long: 40 2\nneedle: the owl is named Ada", /Needle "the owl is named Ada": visible/);
      const seen = (await page.evaluate("window.seen")) as {
        liveCard: boolean;
        liveCardActions: boolean;
        figures: string[];
        compactNow: string[];
      };
      assert.ok(
        seen.compactNow.length > 0 && !seen.compactNow.includes("enabled"),
        `no Compact now while it answers: ${seen.compactNow.join(",")}`,
      );
      assert.ok(seen.liveCard, "the card showed while the turn ran");
      assert.equal(seen.liveCardActions, false, "the live card offers no Undo while the chat answers");
      assert.ok(seen.figures.length >= 3, `the meter moved during the turn: ${seen.figures.join(" | ")}`);

      // After the turn: the stored cards, each once, in the transcript with their actions.
      const stored = (await json("GET", `/api/chats/${chatId}`)) as { messages: { role: string }[] };
      const entries = stored.messages.filter((m) => m.role === "compaction").length;
      assert.ok(entries >= 1);
      await cardsOf(page).last().getByRole("button", { name: "Undo compaction" }).waitFor();
      // The transcript keeps only what is in view in the DOM: read its items top to bottom by scrolling.
      const order = await itemsInOrder(page);
      assert.equal(order.filter((item) => item === "C").length, entries);
      await cardsOf(page).first().getByText("Context compacted automatically").waitFor();
      // Where the live turn showed them: before the answer of the step whose request waited for them.
      assert.ok(
        order.findLastIndex((item) => item === "C") < order.findIndex((item) => /Done: 40 steps/.test(item ?? "")),
        "no card after the turn's answer",
      );
      await noSidewaysScroll(page, 320, "the long turn");
      await cardsOf(page).first().scrollIntoViewIfNeeded();
      await shot(page, "compaction-live-320-light");
      assert.deepEqual(await seriousViolations(page), [], "the long turn with its cards");
    } finally {
      await close();
      await json("PATCH", "/api/settings/app", { toolGates: { file: null } });
    }
  });

  for (const colorScheme of ["light", "dark"] as const) {
    it(`Settings, App defaults, Long sessions at 320 px, ${colorScheme}: saves 70%, refuses 30% in words, clears to the default`, async () => {
      const { page, close } = await open(320, colorScheme, "#/settings/defaults");
      try {
        const group = page.getByRole("group", { name: "Long sessions" });
        await group.waitFor();
        const threshold = group.getByLabel("Compact at");
        await threshold.fill("70");
        await threshold.press("Enter");
        await group.getByRole("status").filter({ hasText: "Saved" }).first().waitFor();
        const saved = (await json("GET", "/api/settings/app")) as { chat?: { compaction?: { threshold?: number } } };
        assert.equal(saved.chat?.compaction?.threshold, 0.7);

        await threshold.fill("30");
        await threshold.press("Enter");
        await group.getByRole("alert").filter({ hasText: "From 50% to 95%" }).waitFor();
        assert.equal(
          await threshold.locator("xpath=ancestor::div[contains(@class,'row')]").getByRole("status").textContent(),
          "",
          "no Saved from before beside the refusal",
        );
        assert.equal(await threshold.getAttribute("aria-invalid"), "true");
        const kept = (await json("GET", "/api/settings/app")) as { chat?: { compaction?: { threshold?: number } } };
        assert.equal(kept.chat?.compaction?.threshold, 0.7, "30% was not saved");
        await noSidewaysScroll(page, 320, "the settings page");
        await group.scrollIntoViewIfNeeded();
        await shot(page, `compaction-settings-320-${colorScheme}`);
        await group.screenshot({ path: `/tmp/shots/compaction-settings-group-320-${colorScheme}.png` });
        const violations = await seriousViolations(page);
        assert.deepEqual(violations, [], `${colorScheme}, settings: ${JSON.stringify(violations, null, 2)}`);

        // The other fields save too; an empty one goes back to the default (its key removed).
        const keep = group.getByLabel("Keep recent tokens");
        await keep.fill("12k");
        await keep.press("Enter");
        const windowField = group.getByLabel("Default context window");
        await windowField.fill("200,000");
        await windowField.press("Enter");
        await group.locator("vscode-checkbox#prompt-caching").click();
        await group.locator("vscode-checkbox#compact-auto").click();
        const read = async () =>
          ((await json("GET", "/api/settings/app")) as { chat?: Record<string, unknown> }).chat ?? {};
        // Each saves on its own: wait for the last of them.
        await until(
          read,
          (c) =>
            c.promptCaching === false &&
            c.contextWindow === 200_000 &&
            Object.keys((c.compaction as object | undefined) ?? {}).length === 3,
          "the other fields saved",
          10_000,
        );
        const chat = await read();
        assert.deepEqual(chat.compaction, { threshold: 0.7, keepRecentTokens: 12_000, auto: false });
        assert.equal(chat.contextWindow, 200_000);

        await threshold.fill("");
        await threshold.press("Enter");
        type Compaction = { threshold?: number } | undefined;
        await until(read, (c) => (c.compaction as Compaction)?.threshold === undefined, "the threshold reset", 10_000);
        await page.reload();
        await group.waitFor();
        assert.equal(await group.getByLabel("Keep recent tokens").inputValue(), "12000", "the saved value shows");
        assert.equal(await group.getByLabel("Compact at").inputValue(), "");
      } finally {
        await close();
        await json("PATCH", "/api/settings/app", {
          chat: { compaction: null, contextWindow: null, promptCaching: null },
        });
      }
    });
  }

  it("at 1280 px, the card and the settings group", async () => {
    const chatId = await chatWithHistory();
    await json("POST", `/api/chats/${chatId}/compact`);
    const { page, close } = await openChat(1280, "light", chatId);
    try {
      await cardsOf(page).waitFor();
      await openMeter(page);
      await shot(page, "compaction-card-1280-light");
      await page.goto(`${stack.url}/?token=${stack.token}#/settings/defaults`);
      await page.getByRole("group", { name: "Long sessions" }).scrollIntoViewIfNeeded();
      await shot(page, "compaction-settings-1280-light");
    } finally {
      await close();
    }
  });
});
