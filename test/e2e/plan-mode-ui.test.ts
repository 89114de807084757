// The composer's footer and Plan mode in a real Chromium (issue 37, items 3 and 11): the chat header is
// one slim row and the model, prompt and agent pickers sit in the composer's footer beside Dictate and
// Send, so the transcript gets the height the header took; Plan is picked there, answers with a plan,
// and "Implement this plan" continues the chat with the default agent and the plan pinned in the
// request. At 320 and 1280 px, light and dark, with axe.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { chooseModel, modelButton, modelField } from "../helpers/model-picker";
import { until } from "../helpers/poll";

/**
 * The transcript's height at 320 × 800 with the header layout before this change (commit 7f7e105: the
 * model field, the prompt chip and the Agent card above the transcript), after one exchange in a
 * project with an agent; measured the same way as below. Without prompts, and with one.
 */
const OLD_TRANSCRIPT_HEIGHT = { withoutPrompt: 407, withPrompt: 379 };

type Wire = { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };

describe("web UI: the composer's footer and Plan mode", function () {
  this.timeout(240_000);
  let ui: BrowserStack | undefined;
  before(async function () {
    ui = await startBrowserStack(this);
    fs.writeFileSync(
      path.join(ui.stack.projectDir, ".app.json"),
      JSON.stringify({ agents: [{ name: "reviewer", description: "Reviews the code", model: "fake/tools" }] }),
    );
  });
  after(() => ui?.stop());

  const completions = async (): Promise<Wire[]> =>
    (await (await fetch(`${new URL(ui!.stack.gateway.baseUrl).origin}/_test/completions`)).json()) as Wire[];
  const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));
  const toolNames = (wire: Wire) => (wire.tools ?? []).map((t) => t.function.name);

  async function openPage(width: number, colorScheme: "light" | "dark"): Promise<Page> {
    const context = await ui!.browser.newContext({ viewport: { width, height: 800 }, colorScheme });
    const page = await context.newPage();
    await page.goto(`${ui!.stack.url}/?token=${ui!.stack.token}`);
    await page.getByRole("button", { name: "New chat" }).click();
    return page;
  }
  const message = (page: Page) => page.getByRole("combobox", { name: "Message" });
  const idle = (page: Page) => page.locator(".composer vscode-button", { hasText: "Send" }).waitFor();
  async function say(page: Page, words: string, answer = `You said: ${words}`): Promise<void> {
    await message(page).fill(words);
    await message(page).press("Enter");
    await page.locator(".message.assistant", { hasText: answer }).waitFor();
    await idle(page);
  }
  const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;
  const middle = (b: { y: number; height: number }) => b.y + b.height / 2;

  it("keeps the header to one slim row and puts the pickers, Dictate and Send in one footer row at 320 px: the transcript gained", async () => {
    const page = await openPage(320, "light");
    try {
      await chooseModel(page, "fake/echo");
      await say(page, "hello");
      await page.mouse.move(0, 0);
      const header = await box(page, ".chat-header");
      assert.ok(header.height <= 40, `the header is one row (${header.height} px)`);

      // The footer: model and agent at its start, Dictate and Send at its end, all on one line.
      const composer = await box(page, ".composer");
      const row = await Promise.all([
        modelButton(page).boundingBox(),
        page.getByLabel("Agent for this chat").boundingBox(),
        page.getByRole("button", { name: "Dictate" }).boundingBox(),
        page.locator(".composer vscode-button", { hasText: "Send" }).boundingBox(),
      ]);
      const [model, agent, dictate, send] = row.map((b) => b!);
      for (const [name, b] of [
        ["agent", agent],
        ["Dictate", dictate],
        ["Send", send],
      ] as const)
        assert.ok(Math.abs(middle(b!) - middle(model!)) <= 8, `${name} is on the model's row`);
      assert.ok(model!.x < dictate!.x && dictate!.x < send!.x, "the pickers first, then Dictate, then Send");
      assert.ok(composer.x + composer.width - (send!.x + send!.width) <= 12, "Send at the footer's end");
      const textarea = (await message(page).boundingBox())!;
      assert.ok(send!.y >= textarea.y + textarea.height, "Send sits in the footer, under the text, not beside it");

      // The @ popup and the model list open in the same place: opening one closes the other.
      await message(page).pressSequentially("@");
      await page.getByRole("listbox", { name: "Mentions" }).waitFor();
      await modelButton(page).click();
      await page.getByRole("listbox", { name: "Models" }).waitFor();
      assert.equal(await page.getByRole("listbox", { name: "Mentions" }).count(), 0, "the @ popup closed");
      await modelField(page).press("Escape");
      await message(page).fill("");

      const transcript = await box(page, "ol.messages");
      assert.ok(
        transcript.height >= OLD_TRANSCRIPT_HEIGHT.withoutPrompt + 80,
        `the transcript is ${transcript.height} px high, ${OLD_TRANSCRIPT_HEIGHT.withoutPrompt} before`,
      );
      await screenshot(page, "composer-footer-320-light");
    } finally {
      await page.context().close();
    }
  });

  it("gives a chat with a prompt its prompt picker too, wrapping the pickers at 320 px, and still gains", async () => {
    await ui!.stack.api("POST", "/api/prompts", {
      scope: "project",
      projectDir: ui!.stack.projectDir,
      prompt: { id: "terse", title: "Terse", content: "Be terse." },
    });
    const page = await openPage(320, "dark");
    try {
      await chooseModel(page, "fake/echo");
      await say(page, "hello");
      await page.mouse.move(0, 0);
      await page.getByLabel("Prompt for this chat").waitFor();
      const transcript = await box(page, "ol.messages");
      assert.ok(
        transcript.height >= OLD_TRANSCRIPT_HEIGHT.withPrompt + 80,
        `the transcript is ${transcript.height} px high, ${OLD_TRANSCRIPT_HEIGHT.withPrompt} before`,
      );
      const agent = (await page.getByLabel("Agent for this chat").boundingBox())!;
      const send = (await page.locator(".composer vscode-button", { hasText: "Send" }).boundingBox())!;
      assert.ok(Math.abs(middle(agent) - middle(send)) <= 8, "Send stays at the end of the pickers' last line");
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `nothing scrolls sideways (${width} px)`);
      await screenshot(page, "composer-footer-prompt-320-dark");
    } finally {
      await page.context().close();
    }
  });

  it("opens the model picker from a failed turn's Choose another model, with the caret in its search field", async () => {
    const page = await openPage(1280, "light");
    try {
      await chooseModel(page, "vendor/no-such-model");
      await message(page).fill("anyone there?");
      await message(page).press("Enter");
      await page.getByRole("button", { name: "Choose another model" }).click();
      const field = modelField(page);
      await field.waitFor();
      assert.ok(await field.evaluate((el) => el === document.activeElement), "the caret is in the search field");
      await chooseModel(page, "fake/echo");
    } finally {
      await page.context().close();
    }
  });

  it("plans in Plan mode with reading tools only, then implements the plan with the default agent and the plan pinned, at 320 and 1280, light and dark", async () => {
    for (const width of [320, 1280])
      for (const colorScheme of ["light", "dark"] as const) {
        const page = await openPage(width, colorScheme);
        const at = `${width} ${colorScheme}`;
        try {
          await chooseModel(page, "fake/tools");
          const picker = page.getByLabel("Agent for this chat");
          await picker.selectOption("Plan");
          await page.getByRole("region", { name: "Agent" }).getByRole("status").filter({ hasText: "Saved" }).waitFor({
            state: "attached",
          });
          assert.equal(await picker.locator("option:checked").textContent(), "Plan (read only)");

          const ask = `How do I add a login page? (${at})`;
          await say(page, ask);
          const planRequest = (await completions()).findLast((w) => text(w.messages.at(-1)?.content) === ask)!;
          assert.deepEqual(toolNames(planRequest), ["file", "ask_user", "task"], `${at}: Plan reads only`);

          const implement = page.getByRole("button", { name: "Implement this plan" });
          await implement.waitFor();
          await page.mouse.move(0, 0);
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(scrollWidth <= width, `${at}: nothing scrolls sideways (${scrollWidth} px)`);
          await screenshot(page, `plan-mode-${width}-${colorScheme}`);
          const violations = await seriousViolations(page);
          assert.deepEqual(violations, [], `${at}: ${JSON.stringify(violations, null, 2)}`);

          const sent = (await completions()).length;
          await implement.click();
          await page.locator(".message.assistant", { hasText: "You said: Implement this plan." }).waitFor();
          await idle(page);
          assert.equal(await implement.count(), 0, `${at}: the plan is handed on once`);
          assert.equal(await picker.inputValue(), "", `${at}: the chat runs as the project's default agent again`);

          const next = (await until(completions, (all) => all.length > sent, "the next request")).at(-1)!;
          assert.equal(text(next.messages.at(-1)?.content), "Implement this plan.");
          assert.ok(toolNames(next).includes("shell"), `${at}: the default agent has every project tool back`);
          const system = next.messages.filter((m) => m.role === "system").map((m) => text(m.content));
          assert.ok(
            system.some((content) => content.includes(`You said: ${ask}`)),
            `${at}: the plan is pinned in the request`,
          );
          await screenshot(page, `plan-mode-implemented-${width}-${colorScheme}`);
        } finally {
          await page.context().close();
        }
      }
  });
});
