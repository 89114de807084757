// The conversation's per-message actions in a real Chromium (contract 7.4, issue 37 items 1 and 6):
// Copy, Edit (a new version beside the old one, offering to revert the files later turns changed),
// Retry (a new answer beside the old one), "‹ 2/2 ›" between versions, "Fork from here", and a
// reverted turn that still says so after a reload. At 320 px and 1280 px, light and dark, axe clean.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { until } from "../helpers/poll";
import { readEvents } from "../helpers/sse";
import type { Stack } from "../helpers/stack";

type Wire = { messages: { role: string; content: unknown }[] };

describe("web UI: edit, retry, versions, fork", function () {
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
  const completions = async () =>
    (await (await fetch(`${new URL(stack.gateway.baseUrl).origin}/_test/completions`)).json()) as Wire[];
  const lastSentUser = async () =>
    (await completions())
      .at(-1)!
      .messages.filter((m) => m.role === "user")
      .map((m) => m.content)
      .at(-1);

  async function chatWith(modelId: string, ...messages: string[]): Promise<string> {
    const chatId = ((await json("POST", `/api/projects/${projectId}/chats`, { modelId })) as { id: string }).id;
    for (const content of messages) {
      const res = await stack.api("POST", `/api/chats/${chatId}/messages/stream`, { content });
      assert.equal(res.status, 200, await res.clone().text());
      await readEvents(res);
    }
    return chatId;
  }
  async function openChat(width: number, colorScheme: "light" | "dark", chatId: string) {
    const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.url });
    const page = await context.newPage();
    await page.goto(`${stack.url}/?token=${stack.token}#/chat/${chatId}`);
    await page.locator(".chat-view").waitFor();
    return { page, close: () => context.close() };
  }
  const transcript = (page: Page) => page.getByRole("list", { name: "Transcript" });
  const userMessage = (page: Page, text: string) =>
    transcript(page)
      .locator("li.message.user")
      .filter({ has: page.locator(".bubble", { hasText: text }) });
  const answer = (page: Page, text: string) =>
    transcript(page).locator("li.message.assistant").filter({ hasText: text });
  const actionsOf = (item: Locator, of: "what you asked" | "the answer") =>
    item.getByRole("group", { name: `Actions on ${of}` });
  const bubbles = (page: Page) => transcript(page).locator("li.message.user .bubble").allTextContents();

  for (const [width, scheme] of [
    [320, "light"],
    [1280, "dark"],
  ] as const) {
    it(`edits a message into a new version and switches between versions (${width} px, ${scheme})`, async () => {
      const chatId = await chatWith("fake/echo", "First question", "Second question");
      const { page, close } = await openChat(width, scheme, chatId);
      try {
        const second = userMessage(page, "Second question");
        await actionsOf(second, "what you asked").getByRole("button", { name: "Edit" }).click();
        const field = page.getByLabel("Edited text");
        assert.equal(await field.inputValue(), "Second question");
        await field.fill("Second question, sharper");
        await page.getByRole("button", { name: "Save and send" }).click();
        await answer(page, "You said: Second question, sharper").waitFor();
        assert.equal(await lastSentUser(), "Second question, sharper");
        assert.deepEqual(await bubbles(page), ["First question", "Second question, sharper"]);

        const edited = actionsOf(userMessage(page, "sharper"), "what you asked");
        const versions = edited.getByRole("group", { name: "Versions of what you asked" });
        assert.equal((await versions.textContent())?.replace(/\s+/g, ""), "‹2/2›");
        assert.ok(await versions.getByRole("button", { name: "Next version" }).isDisabled());
        assert.deepEqual(await seriousViolations(page), []);
        await screenshot(page, `conversation-versions-${width}-${scheme}`);

        await versions.getByRole("button", { name: "Previous version" }).click();
        await answer(page, "You said: Second question").first().waitFor();
        await until(
          () => bubbles(page),
          (shown) => shown.at(-1) === "Second question",
          "the first version",
        );
        const back = actionsOf(userMessage(page, "Second question"), "what you asked");
        await back.getByRole("button", { name: "Next version" }).click();
        await until(
          () => bubbles(page),
          (shown) => shown.at(-1) === "Second question, sharper",
          "the edit again",
        );
      } finally {
        await close();
      }
    });
  }

  it("Retry makes a new answer beside the old one; Copy copies the answer's text", async () => {
    const chatId = await chatWith("fake/echo", "Tell me once");
    const { page, close } = await openChat(320, "dark", chatId);
    try {
      const before = (await completions()).length;
      const first = answer(page, "You said: Tell me once");
      await actionsOf(first, "the answer").getByRole("button", { name: "Copy" }).click();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "You said: Tell me once");

      await actionsOf(first, "the answer").getByRole("button", { name: "Retry" }).click();
      const versions = page.getByRole("group", { name: "Versions of the answer" });
      await until(
        () => versions.textContent({ timeout: 10_000 }),
        (shown) => shown?.replace(/\s+/g, "") === "‹2/2›",
        "two versions of the answer",
        10_000,
      );
      assert.equal((await completions()).length, before + 1);
      assert.equal(await lastSentUser(), "Tell me once");
      assert.deepEqual(await bubbles(page), ["Tell me once"], "no second user message");
      assert.deepEqual(await seriousViolations(page), []);
    } finally {
      await close();
    }
  });

  it("Fork from here opens a new chat holding the conversation up to that answer", async () => {
    const chatId = await chatWith("fake/echo", "Keep this", "Not this");
    const { page, close } = await openChat(1280, "light", chatId);
    try {
      const kept = answer(page, "You said: Keep this");
      await actionsOf(kept, "the answer").getByRole("button", { name: "Fork from here" }).click();
      await until(
        () => page.evaluate(() => location.hash),
        (hash) => hash !== `#/chat/${chatId}`,
        "the fork opened",
      );
      await until(
        () => bubbles(page),
        (shown) => shown.join("|") === "Keep this",
        "the fork's messages",
      );
      await answer(page, "You said: Keep this").waitFor();
      const forkId = (await page.evaluate(() => location.hash)).replace("#/chat/", "");
      const fork = (await json("GET", `/api/chats/${forkId}`)) as { title: string };
      assert.match(fork.title, /\(fork\)$/);
    } finally {
      await close();
    }
  });

  it("editing a message whose later turn wrote a file reverts it first; the reverted turn says so after a reload", async () => {
    await json("PATCH", "/api/settings/app", { toolGates: { file: "allow" } });
    const file = path.join(stack.projectDir, "edit-revert.txt");
    fs.rmSync(file, { force: true });
    try {
      const chatId = await chatWith("fake/tools", "Plan first", "write: edit-revert.txt from the agent");
      assert.equal(fs.readFileSync(file, "utf8"), "from the agent");
      const { page, close } = await openChat(320, "light", chatId);
      try {
        await actionsOf(userMessage(page, "Plan first"), "what you asked")
          .getByRole("button", { name: "Edit" })
          .click();
        const offer = page.getByRole("checkbox", { name: /Revert the files changed after this message first/ });
        assert.ok(await offer.isChecked());
        assert.match((await offer.locator("..").textContent()) ?? "", /edit-revert\.txt/);
        await page.getByLabel("Edited text").fill("Plan again");
        await page.getByRole("button", { name: "Save and send" }).click();
        await answer(page, "You said: Plan again").waitFor();
        assert.equal(fs.existsSync(file), false, "the file the later turn created is gone");

        // Back to the version that wrote it: its Revert says it was reverted, and still does after a reload.
        await actionsOf(userMessage(page, "Plan again"), "what you asked")
          .getByRole("button", { name: "Previous version" })
          .click();
        const changes = page.getByRole("group", { name: "File changes of this turn" });
        await changes.getByText("These changes were reverted.").waitFor();
        await page.reload();
        await changes.getByText("These changes were reverted.").waitFor();
        assert.equal(await changes.getByRole("button", { name: "Revert changes" }).count(), 0);
        assert.deepEqual(await seriousViolations(page), []);
        await screenshot(page, "conversation-edit-reverted-320");
      } finally {
        await close();
      }
    } finally {
      await json("PATCH", "/api/settings/app", { toolGates: { file: null } });
    }
  });

  it("an edit while the chat answers is refused by the server with 409 and changes nothing", async () => {
    const chatId = await chatWith("fake/echo", "Only one");
    const page = (await json("GET", `/api/chats/${chatId}`)) as { messages: { id: string }[] };
    const running = await stack.api("POST", `/api/chats/${chatId}/messages/stream`, {
      content: "take your time",
      modelId: "fake/slow",
    });
    const res = await stack.api("POST", `/api/chats/${chatId}/messages/stream`, {
      content: "edited",
      parentId: page.messages[0]!.id,
    });
    assert.equal(res.status, 409);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /answering/);
    await readEvents(running);
  });
});
