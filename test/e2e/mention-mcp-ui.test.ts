// MCP resources and prompts in the composer (issue 34, item 11), in a real Chromium against
// `parley serve` with server-everything (stdio) as an app server: `@arch` offers its architecture.md
// resource, picking it puts a readable token in the box, and sending attaches it (the message shows
// its chip, the model gets "Resource: architecture.md"); a prompt without arguments fills the box at
// once; one with arguments asks for them in a small form (labels, the required one marked, Escape
// cancels, a refusal said in words), then fills the box; axe and no sideways scroll at 320 px.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { popup, seedProject, startEverything } from "../helpers/mention-fixture";
import { chooseModel } from "../helpers/model-picker";
import { until } from "../helpers/poll";
import type { Stack } from "../helpers/stack";

describe("web UI: MCP resources and prompts in the @ popup", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let p: ReturnType<typeof popup>;
  const turnEnded = () => page.getByRole("button", { name: "Send" }).waitFor();
  const completions = async () =>
    (await (await fetch(`${new URL(stack.gateway.baseUrl).origin}/_test/completions`)).json()) as {
      messages: { role: string; content: unknown }[];
    }[];
  const promptForm = () => page.getByRole("form", { name: /Prompt everything › Arguments Prompt/ });
  /** Types `query` in an empty box and picks the row `label` with the keys. */
  async function pickRow(query: string, label: string) {
    await p.type(query);
    const labels = await p.waitLabels((l) => l.includes(label), label);
    for (let i = 0; i < labels.indexOf(label); i++) await p.box.press("ArrowDown");
    await p.box.press("Enter");
  }
  const boxSays = (what: (text: string) => boolean, why: string) => until(() => p.box.inputValue(), what, why);

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    await seedProject(stack);
    await startEverything(stack);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/echo");
    p = popup(page);
  });

  after(() => ui?.stop());

  it("offers the resource for @arch, inserts a readable token, and sends it attached: chip under the message, content to the model", async () => {
    await p.type("summarise @arch");
    await p.waitLabels((l) => l.includes("everything › architecture.md"), "the resource row");
    const row = (await p.rows()).find((r) => r[1] === "everything › architecture.md");
    assert.deepEqual(row, ["MCP resource", "everything › architecture.md", "Resource · text/markdown"]);
    await page.setViewportSize({ width: 320, height: 800 });
    assert.deepEqual(await seriousViolations(page), [], "the resource row at 320 px");
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(widths[0]! <= widths[1]!, `no sideways scroll: ${widths}`);
    await screenshot(page, "mentions-mcp-rows-320");
    await page.setViewportSize({ width: 900, height: 900 });
    await pickRow("summarise @arch", "everything › architecture.md");
    assert.equal(await p.box.inputValue(), "summarise @everything:architecture.md ");
    assert.equal(await p.listbox.count(), 0, "the popup closed on the token");

    const before = (await completions()).length;
    await p.box.press("Enter");
    const message = page.locator(".message.user", { hasText: "summarise @everything:architecture.md" });
    const chips = message.getByRole("list", { name: "Referenced files" });
    await chips.waitFor();
    await turnEnded();
    assert.deepEqual(
      (await chips.getByRole("listitem").allTextContents()).map((t) => t.trim()),
      ["architecture.md"],
    );
    const sent = (await completions()).slice(before);
    assert.equal(sent.length, 1);
    const texts = sent[0]!.messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
    assert.ok(
      texts.some((t) => t.startsWith("Resource: architecture.md")),
      `the resource reached the model: ${JSON.stringify(texts.map((t) => t.slice(0, 40)))}`,
    );
    await screenshot(page, "mentions-mcp-resource-chip");
  });

  it("does not attach a picked resource whose token was deleted before sending", async () => {
    await pickRow("@arch", "everything › architecture.md");
    await p.box.fill("never mind");
    const before = (await completions()).length;
    await p.box.press("Enter");
    await page.locator(".message.assistant", { hasText: "You said: never mind" }).waitFor();
    await turnEnded();
    const [sent] = (await completions()).slice(before);
    const last = sent!.messages.findLastIndex((m) => m.content === "never mind");
    assert.ok(last > 0, "the message reached the model");
    assert.doesNotMatch(String(sent!.messages[last - 1]!.content), /^Resource:/, "nothing attached to it");
    const message = page.locator(".message.user", { hasText: "never mind" });
    assert.equal(await message.getByRole("list", { name: "Referenced files" }).count(), 0);
  });

  it("fills the box with a prompt without arguments at once, in place of its @ token", async () => {
    await pickRow("first @Simple", "everything › Simple Prompt");
    await boxSays((t) => t.includes("simple prompt"), "the prompt's text in the box");
    assert.equal(await p.box.inputValue(), "first This is a simple prompt without arguments.");
    assert.equal(await promptForm().count(), 0, "no form for a prompt without arguments");
  });

  it("asks for a prompt's arguments in a form: Escape cancels, a missing or refused one is said in words, Use prompt fills the box", async () => {
    await pickRow("@Argu", "everything › Arguments Prompt");
    const form = promptForm();
    await form.waitFor();
    const city = form.getByLabel("city (required)");
    await city.waitFor();
    assert.ok(await city.evaluate((el) => el === document.activeElement), "the first field has the focus");
    assert.equal(await form.getByLabel("state", { exact: true }).count(), 1);
    await form.getByText("Name of the city").waitFor();
    await city.press("Escape");
    await form.waitFor({ state: "detached" });
    assert.ok(await p.box.evaluate((el) => el === document.activeElement), "Escape returns to the box");
    assert.equal(await p.box.inputValue(), "@Argu", "a cancelled prompt leaves the text as it was");

    await pickRow("@Argu", "everything › Arguments Prompt");
    await form.waitFor();
    await form.getByRole("button", { name: "Use prompt" }).click();
    await form.getByRole("alert").filter({ hasText: "Fill in city." }).waitFor();

    // The server's refusal (a 400 with its message) is shown as its words.
    await page.route("**/api/mcp/servers/everything/prompts/args-prompt*", (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          error: { code: "invalid_request", message: 'the MCP server "everything" could not give the prompt' },
        }),
      }),
    );
    await city.fill("Lisbon");
    await city.press("Enter");
    await form
      .getByRole("alert")
      .filter({ hasText: 'Could not get the prompt: the MCP server "everything" could not give the prompt' })
      .waitFor();
    await page.unroute("**/api/mcp/servers/everything/prompts/args-prompt*");

    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width: 320, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: window.innerWidth,
      }));
      assert.ok(widths.scroll <= widths.inner, `no sideways scroll: ${JSON.stringify(widths)}`);
      assert.deepEqual(await seriousViolations(page), [], `the prompt form, ${scheme} at 320 px`);
      await screenshot(page, `mentions-mcp-prompt-form-320-${scheme}`);
    }

    await form.getByLabel("state", { exact: true }).fill("Estremadura");
    await form.getByRole("button", { name: "Use prompt" }).focus();
    await page.keyboard.press("Enter");
    await form.waitFor({ state: "detached" });
    await boxSays((t) => t !== "@Argu", "the prompt's text in the box");
    assert.equal(await p.box.inputValue(), "What's weather in Lisbon, Estremadura?");
    assert.ok(await p.box.evaluate((el) => el === document.activeElement), "the box has the focus again");
    await page.setViewportSize({ width: 900, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
  });
});
