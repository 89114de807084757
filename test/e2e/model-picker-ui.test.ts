// The composer's model picker in a real Chromium: a button with the model's name that opens a list
// searchable by id, name and vendor, with prices and context length, driven by keyboard, and clean
// under axe at 320 px in both themes.
import assert from "node:assert/strict";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { chooseModel, chosenModel, modelButton, modelField, openModelPicker } from "../helpers/model-picker";
import { until } from "../helpers/poll";

describe("web UI: the searchable model picker", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;

  before(async function () {
    ui = await startBrowserStack(this);
  });
  after(() => ui?.stop());

  const openNewChat = async () => {
    const { stack, page } = ui!;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("button", { name: "New chat" }).click();
    await modelButton(page).waitFor();
  };

  it("finds a model by vendor, by name and by id, and shows its prices and context length", async () => {
    const { page } = ui!;
    await openNewChat();
    const models = page.getByRole("listbox", { name: "Models" });
    const options = models.getByRole("option");

    assert.equal(await modelButton(page).getAttribute("aria-expanded"), "false");
    await modelButton(page).click();
    assert.equal(await modelButton(page).getAttribute("aria-expanded"), "true");
    const field = modelField(page);
    assert.ok(await field.evaluate((el) => el === document.activeElement), "the caret is in the search field");
    // The list may still be on its way (it loads after the page): it fills the open popup when it comes.
    await until(
      () => options.count(),
      (n) => n >= 10,
      "the whole list before anything is typed",
    );

    await field.fill("anthropic");
    const found = await options.allTextContents();
    // The fake's two Anthropic models (anthropic/fake-claude simulates prompt caching), then the id.
    assert.equal(found.length, 3, "the vendor's models, and the typed text as an id the list does not show");
    assert.match(found[2]!, /^Use model id “anthropic”/, "last");
    assert.match(
      (await options.filter({ hasText: "Claude Sonnet 4" }).textContent())!,
      /Claude Sonnet 4.*anthropic\/claude-sonnet-4 · anthropic · \$3\.00 \/ \$15\.00 per 1M · 128K context/,
    );

    await field.fill("gemini flash");
    assert.match((await options.first().textContent())!, /Gemini 2\.5 Flash/, "every word, in any field");
    await field.fill("openai/gpt-4o-mini");
    assert.match((await options.first().textContent())!, /GPT-4o-mini/);
    await field.press("Enter");
    await models.waitFor({ state: "detached" });
    assert.equal(await modelButton(page).getAttribute("aria-expanded"), "false");
    assert.equal(await chosenModel(page), "openai/gpt-4o-mini");
    // The button shows the name without its vendor, and says what it is to a screen reader.
    await page.getByRole("button", { name: "Model: GPT-4o-mini", exact: true }).waitFor();
    assert.ok(await modelButton(page).evaluate((el) => el === document.activeElement), "the focus goes back to it");
  });

  it("moves with Down and Up, wrapping, and Escape puts the chosen model back", async () => {
    const { page } = ui!;
    await openNewChat();
    await chooseModel(page, "fake/echo");
    const field = await openModelPicker(page);
    await field.fill("fake/");
    const options = page.getByRole("listbox", { name: "Models" }).getByRole("option");
    const count = await options.count();
    const selectedIndex = async () =>
      await options.evaluateAll((els) => els.findIndex((el) => el.getAttribute("aria-selected") === "true"));
    assert.equal(await selectedIndex(), 0);
    await field.press("ArrowUp");
    assert.equal(await selectedIndex(), count - 1, "Up from the first wraps to the last");
    await field.press("ArrowDown");
    assert.equal(await selectedIndex(), 0, "Down from the last wraps to the first");
    const activeId = await field.getAttribute("aria-activedescendant");
    assert.equal(
      activeId,
      await options.first().getAttribute("id"),
      "the field names the active option for screen readers",
    );
    await field.press("Escape");
    assert.equal(await chosenModel(page), "fake/echo", "Escape keeps the model chosen before");
    assert.equal(await page.getByRole("listbox", { name: "Models" }).count(), 0);
    assert.ok(await modelButton(page).evaluate((el) => el === document.activeElement), "Escape gives the focus back");

    await modelButton(page).press("ArrowDown");
    assert.ok(await field.evaluate((el) => el === document.activeElement), "Down on the button opens the list");
    await field.fill("zzz-nothing");
    await page.getByText("Use model id “zzz-nothing”").waitFor();
    await page
      .getByRole("button", { name: "New chat" })
      .or(page.getByRole("link", { name: "Back to chats" }))
      .first()
      .focus();
    await page.getByRole("listbox", { name: "Models" }).waitFor({ state: "detached" });
    assert.equal(await chosenModel(page), "fake/echo", "leaving the field without choosing changes nothing");
  });

  it("sends with the model picked by mouse", async () => {
    const { page } = ui!;
    await openNewChat();
    await modelButton(page).click();
    await page.getByRole("option", { name: /Fake: Echo/ }).click();
    assert.equal(await chosenModel(page), "fake/echo");
    await page.getByLabel("Message").fill("picked by mouse");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant", { hasText: "You said: picked by mouse" }).waitFor();
  });

  it("keeps Enter in the search field to the picker: the composer's message is not sent", async () => {
    const { page } = ui!;
    await openNewChat();
    await chooseModel(page, "fake/echo");
    await page.getByLabel("Message").fill("not yet");
    const field = await openModelPicker(page);
    await field.fill("fake/reasoner");
    await field.press("Enter");
    assert.equal(await chosenModel(page), "fake/reasoner");
    assert.equal(await page.getByLabel("Message").inputValue(), "not yet", "the draft stays");
    assert.equal(await page.locator(".message.user").count(), 0, "nothing was sent");
  });

  it("has no serious axe violation with the list open at 320 px, light and dark", async () => {
    const { stack, browser } = ui!;
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width: 320, height: 800 }, colorScheme });
      try {
        const narrow = await context.newPage();
        await narrow.goto(`${stack.url}/?token=${stack.token}`);
        await narrow.getByRole("button", { name: "New chat" }).click();
        await modelButton(narrow).click();
        await modelField(narrow).fill("fake");
        await narrow.getByRole("listbox", { name: "Models" }).waitFor();
        const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 320, `nothing scrolls sideways (${width} px)`);
        await screenshot(narrow, `model-picker-320-${colorScheme}`);
        const violations = await seriousViolations(narrow);
        assert.deepEqual(violations, [], `${colorScheme}: ${JSON.stringify(violations, null, 2)}`);
      } finally {
        await context.close();
      }
    }
  });

  it("says the list is loading when opened before it came, and fills in without reopening", async () => {
    const { stack, page } = ui!;
    // The list is held back until the picker has been seen waiting for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/providers/gateway/models**", async (route) => {
      await held;
      // A request of the page before its reload is gone by then.
      await route.continue().catch(() => {});
    });
    try {
      await page.goto(`${stack.url}/?token=${stack.token}`);
      await page.reload();
      await page.getByRole("button", { name: "New chat" }).click();
      await modelButton(page).click();
      const models = page.getByRole("listbox", { name: "Models" });
      await models.getByText("Loading models…").waitFor();
      assert.equal(await models.getAttribute("aria-busy"), "true");
      assert.equal(await models.getByText(/No model matches/).count(), 0, "no claim that nothing matches");
      release();
      await until(
        () => models.getByRole("option").count(),
        (n) => n >= 10,
        "the list, once it comes",
      );
      assert.equal(await models.getAttribute("aria-busy"), "false");
      assert.equal(await models.getByText("Loading models…").count(), 0);
    } finally {
      release();
      await page.unroute("**/api/providers/gateway/models**");
    }
  });
});
