// What a running turn keeps in reach (issue 37, items 2, 4 and 5), in a real Chromium against
// `parley serve` and the fake gateway's `fake/tools` model: an approval pinned above the composer in
// "Waiting for you" at 320 and 1280 px, light and dark (never below the fold, Always allow never cut
// off), answered with Enter and Escape, announced, taking the focus only when the user is not typing;
// the working line naming the current step; a failed call open by default; an MCP tool shown as
// "Calc › get-sum"; and errors in words with the way out and the gateway's own words beside them.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";

const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");

describe("web UI: waiting for you, the working line, tool names and errors in words", function () {
  this.timeout(240_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let browser: Browser;
  let projectId = "";
  const query = () => `projectDir=${encodeURIComponent(stack.projectDir)}`;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, browser } = ui);
    projectId = (await (await stack.api("GET", "/api/projects")).json())[0].id;
    fs.mkdirSync(path.join(stack.projectDir, "src"), { recursive: true });
    fs.writeFileSync(path.join(stack.projectDir, "src", "keep.txt"), "precious\n");
  });

  after(() => ui?.stop());

  /** A chat on `model`, made through the API (an unknown model id too), opened in `page`. */
  async function openChat(page: Page, modelId: string): Promise<string> {
    const chat = await (await stack.api("POST", `/api/projects/${projectId}/chats`, { modelId })).json();
    await page.goto(`${stack.url}/?token=${stack.token}#/chat/${chat.id}`);
    await page.getByRole("combobox", { name: "Message" }).waitFor();
    return chat.id as string;
  }

  async function say(page: Page, text: string): Promise<void> {
    const box = page.getByRole("combobox", { name: "Message" });
    await box.fill(text);
    await box.press("Enter");
  }

  const waiting = (page: Page) => page.getByRole("region", { name: "Waiting for you" });
  const turnEnded = (page: Page) => page.getByRole("button", { name: "Send" }).waitFor();
  const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? "");

  /** The element's box lies wholly inside the viewport. */
  async function inView(page: Page, what: string, box: { x: number; y: number; width: number; height: number } | null) {
    const viewport = page.viewportSize()!;
    assert.ok(box, `${what} is shown`);
    assert.ok(
      box.y >= 0 &&
        box.y + box.height <= viewport.height + 0.5 &&
        box.x >= 0 &&
        box.x + box.width <= viewport.width + 0.5,
      `${what} is in view at ${viewport.width}x${viewport.height}: ${JSON.stringify(box)}`,
    );
  }

  for (const width of [320, 1280]) {
    for (const colorScheme of ["light", "dark"] as const) {
      it(`pins "rm -rf src" waiting for approval above the composer at ${width} px (${colorScheme}), and Escape denies it`, async () => {
        const context = await browser.newContext({
          viewport: { width, height: width === 320 ? 640 : 800 },
          colorScheme,
        });
        try {
          const page = await context.newPage();
          await openChat(page, "fake/tools");
          // A long conversation first, so the new card would land below the fold without the pinned region.
          for (let i = 0; i < 3; i++) {
            await say(page, `hello number ${i} ${"with quite a lot of words to fill the screen ".repeat(6)}`);
            await turnEnded(page);
          }
          await say(page, "shell: rm -rf src");
          const region = waiting(page);
          await region.getByRole("button", { name: "Allow" }).waitFor();
          await inView(page, "the Waiting for you region", await region.boundingBox());
          await inView(page, "Allow", await region.getByRole("button", { name: "Allow" }).boundingBox());
          await inView(page, "Deny", await region.getByRole("button", { name: "Deny" }).boundingBox());
          await inView(page, "Always allow", await region.getByText("Always allow in this project").boundingBox());
          assert.match((await region.textContent())!, /Allow this call\?\s*shell\s*rm -rf src/);
          assert.match((await region.getByRole("button", { name: "Allow" }).textContent())!, /⏎/, "the key is shown");
          assert.match((await region.getByRole("button", { name: "Deny" }).textContent())!, /Esc/);
          // Announced, and the region has the focus (the composer was empty: its message was just sent).
          await page.getByText("Parley is waiting for you: allow shell on rm -rf src?").waitFor({ state: "attached" });
          assert.equal(await activeId(page), "waiting-for-you");
          // The card in the transcript still waits, and points to the answer.
          const card = page.getByRole("group", { name: "shell", exact: true }).last();
          assert.equal(await card.locator(".status").textContent(), "waiting for you");
          assert.equal(await card.getByRole("button", { name: "Allow" }).count(), 0, "answered in one place");
          await page.getByRole("status").filter({ hasText: "Waiting for you to allow shell…" }).waitFor();
          await screenshot(page, `waiting-rm-rf-${width}-${colorScheme}`);
          const width_ = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(width_ <= width, `nothing sticks out sideways (${width_} px)`);
          assert.deepEqual(await seriousViolations(page), [], `${width} px ${colorScheme}`);

          await page.keyboard.press("Escape");
          await turnEnded(page);
          assert.equal(await waiting(page).count(), 0);
          assert.equal(await card.locator(".status").textContent(), "denied");
          assert.ok(fs.existsSync(path.join(stack.projectDir, "src", "keep.txt")), "nothing was deleted");
          assert.equal(
            await page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
            "Message",
            "the focus is back in the composer",
          );
        } finally {
          await context.close();
        }
      });
    }
  }

  it("shows a waiting call in another window too, allows with Enter, points from the card to the answer, and names each step", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    try {
      const page = await context.newPage();
      await openChat(page, "fake/tools");
      await say(page, "shell: sleep 1 && echo slept-well");
      const region = waiting(page);
      await region.getByRole("button", { name: "Allow" }).waitFor();
      // Another window opened while the call waits follows the turn, and can answer it as well.
      const other = await context.newPage();
      await other.goto(page.url());
      await waiting(other).getByRole("button", { name: "Allow" }).waitFor();
      assert.equal(await other.getByRole("group", { name: "shell", exact: true }).count(), 1, "the card shows once");
      // "Go to answer" on the card brings the focus to the region (from wherever it was).
      await page.getByRole("combobox", { name: "Message" }).focus();
      await page
        .getByRole("group", { name: "shell", exact: true })
        .getByRole("button", { name: "Go to answer" })
        .click();
      assert.equal(await activeId(page), "waiting-for-you");
      // Enter on a button is that button's: on Deny it would deny. On the region it allows.
      await page.keyboard.press("Enter");
      await page.getByRole("status").filter({ hasText: "Running shell: sleep 1 && echo slept-well" }).waitFor();
      await screenshot(page, "waiting-running-step");
      await page.locator(".message.assistant", { hasText: "slept-well" }).waitFor();
      await turnEnded(page);
      assert.equal(await waiting(other).count(), 0, "answered here, gone there too");
      assert.equal((await page.getByRole("status").filter({ hasText: "Running" }).count()) === 0, true);
    } finally {
      await context.close();
    }
  });

  it("leaves the focus with a user who is typing when a call starts waiting", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    try {
      const page = await context.newPage();
      const chatId = await openChat(page, "fake/tools");
      // Two shell steps, each asking: the first is answered elsewhere (the API) while the user types here.
      await say(page, "long: 2 1 shell");
      await waiting(page).getByRole("button", { name: "Allow" }).waitFor();
      const box = page.getByRole("combobox", { name: "Message" });
      await box.fill("half a thought");
      const stored = await (await stack.api("GET", `/api/chats/${chatId}`)).json();
      const call = stored.messages.at(-1).meta.toolCalls.at(-1).id as string;
      assert.equal(
        (await stack.api("POST", `/api/chats/${chatId}/approvals/${call}`, { decision: "allow" })).status,
        204,
      );
      await page.getByText(/^Parley is waiting for you: allow shell on yes 'parley-long step 2\/2/).waitFor({
        state: "attached",
      });
      await waiting(page).getByRole("button", { name: "Allow" }).waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
      await page.keyboard.type(" and more");
      assert.equal(await box.inputValue(), "half a thought and more", "every key went to the composer");
      await waiting(page).getByRole("button", { name: "Allow" }).click();
      await turnEnded(page);
      assert.equal(await box.inputValue(), "half a thought and more", "the draft is kept");
    } finally {
      await context.close();
    }
  });

  it("opens a failed call by default, and shows the plan as a checklist in the task card", async () => {
    const context = await browser.newContext({ viewport: { width: 900, height: 800 } });
    try {
      const page = await context.newPage();
      await openChat(page, "fake/tools");
      await say(page, 'mcp: file {"action":"read","path":"no-such-file.txt"}');
      await turnEnded(page);
      const failed = page.getByRole("group", { name: "file no-such-file.txt", exact: true });
      assert.equal(await failed.locator(".status").textContent(), "failed");
      await failed.getByRole("button", { expanded: true }).waitFor();
      assert.ok(await failed.getByLabel("Output").isVisible(), "the reason shows without a click");

      await stack.api("PATCH", `/api/settings/project?${query()}`, { toolGates: { report_progress: "allow" } });
      await say(page, "tasks: write the code, test it");
      await turnEnded(page);
      const task = page.getByRole("group", { name: "task", exact: true });
      assert.equal(await task.locator(".summary").textContent(), "0 of 2 done");
      await task.getByRole("button", { expanded: false }).click();
      const items = (await task.getByRole("listitem").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
      assert.deepEqual(items, ["◐ write the code in progress", "☐ test it to do"]);
    } finally {
      await context.close();
    }
  });

  it("shows an MCP tool as Calc › get-sum, with its id on hover and in the card's details", async () => {
    await stack.api("PATCH", "/api/settings/app", {
      mcpServers: [
        { id: "calc", name: "Calc", transport: "stdio", command: process.execPath, args: [EVERYTHING, "stdio"] },
      ],
    });
    const deadline = Date.now() + 60_000;
    for (;;) {
      const servers = await (await stack.api("GET", `/api/mcp/servers?${query()}`)).json();
      if (servers.some((s: { id: string; status: string }) => s.id === "calc" && s.status === "ready")) break;
      assert.ok(Date.now() < deadline, `the calc server starts: ${JSON.stringify(servers)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const context = await browser.newContext({ viewport: { width: 320, height: 640 } });
    try {
      const page = await context.newPage();
      await openChat(page, "fake/tools");
      await say(page, 'mcp: mcp__calc__get-sum {"a":2,"b":3}');
      const region = waiting(page);
      await region.getByRole("button", { name: "Allow" }).waitFor();
      assert.match((await region.textContent())!, /Allow this call\?\s*Calc › get-sum/);
      await page
        .getByText('Parley is waiting for you: allow Calc › get-sum on {"a":2,"b":3}?')
        .waitFor({ state: "attached" });
      const card = page.getByRole("group", { name: "Calc › get-sum", exact: true });
      assert.equal(await card.locator(".tool").textContent(), "Calc › get-sum");
      assert.equal(await card.locator(".tool").getAttribute("title"), "mcp__calc__get-sum");
      await screenshot(page, "waiting-mcp-320");
      await region.getByRole("button", { name: "Allow" }).click();
      await turnEnded(page);
      await card.getByRole("button", { expanded: false }).click();
      assert.match((await card.textContent())!, /Tool id: mcp__calc__get-sum/);
      assert.match((await card.getByLabel("Output").textContent())!, /5/);
    } finally {
      await context.close();
    }
  });

  it("says in words that the gateway does not know a model, with the way out and its own words kept", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width: 320, height: 700 }, colorScheme });
      try {
        const page = await context.newPage();
        await openChat(page, "vendor/no-such-model");
        await say(page, "anyone there?");
        const failure = page.locator(".turn-error");
        await failure.getByText("The gateway does not know the model vendor/no-such-model.").waitFor();
        assert.match((await failure.textContent())!, /Pick another model in the model picker/);
        assert.match(
          (await failure.textContent())!,
          /Details:\s*400: vendor\/no-such-model is not a valid model ID/,
          "the gateway's own words stay",
        );
        await failure.getByRole("button", { name: "Choose another model" }).waitFor();
        await screenshot(page, `error-words-model-320-${colorScheme}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 320, `nothing sticks out sideways (${width} px)`);
        assert.deepEqual(await seriousViolations(page), [], colorScheme);
      } finally {
        await context.close();
      }
    }
  });
});
