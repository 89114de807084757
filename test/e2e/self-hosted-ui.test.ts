// The web UI in a real Chromium against `parley serve` pointed at a real self-hosted server
// (@dwmkerr/mock-llm): no balance, prices the user sets, model ids the list does not show, and
// unknown costs; then a cut-off answer from the fake gateway.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm";
import type { Stack } from "../helpers/stack";
import { chooseModel, chosenModel, modelField, openModelPicker } from "../helpers/model-picker";

const MODEL = "qwen2.5-0.5b-instruct";

describe("web UI against a self-hosted server", function () {
  this.timeout(120_000);
  let mock: MockLlm | undefined;
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;

  before(async function () {
    mock = await startMockLlm();
    ui = await startBrowserStack(this, {
      gatewayBaseUrl: mock.baseUrl,
      apiKey: "sk-local-e2e",
      viewport: { width: 900, height: 1000 },
    });
    ({ stack, page } = ui);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(async () => {
    await ui?.stop();
    await mock?.stop();
  });

  it("says the balance is not available and saves a price per million tokens for a model", async () => {
    const credits = page.waitForResponse((r) => r.url().endsWith("/api/providers/gateway/credits"));
    await page.goto(`${stack.url}/#/settings/providers`);
    assert.deepEqual(await (await credits).json(), { supported: false });
    await page.getByRole("heading", { name: "Model prices and kinds" }).waitFor();
    await page.locator(".balance", { hasText: "not available" }).waitFor();
    assert.doesNotMatch((await page.locator(".balance").textContent())!, /\$/, "no figure where the server keeps none");
    await page.locator("#price-model input").fill(MODEL);
    await page.locator("#price-prompt input").fill("100");
    await page.locator("#price-completion input").fill("400");
    await page.getByRole("button", { name: "Save model" }).click();
    await page
      .getByRole("list", { name: "Models with a price or kind" })
      .getByText("$100.00 / $400.00 per 1M")
      .waitFor();
    await screenshot(page, "10-self-hosted-prices");
    const { settings } = await (await stack.api("GET", "/api/settings/resolved")).json();
    assert.deepEqual(settings.models.find((m: { id: string }) => m.id === MODEL).pricing, {
      prompt: 0.0001,
      completion: 0.0004,
    });
  });

  it("refuses a price that is not a number, saying why", async () => {
    await page.locator("#price-model input").fill("other");
    await page.locator("#price-prompt input").fill("cheap");
    await page.locator("#price-completion input").fill("1");
    await page.getByText("Prices are dollars per million tokens").waitFor();
    assert.equal(
      await page
        .locator("vscode-button", { hasText: "Save model" })
        .evaluate((el) => (el as HTMLButtonElement).disabled),
      true,
    );
    await page.locator("#price-model input").fill("");
    await page.locator("#price-prompt input").fill("");
    await page.locator("#price-completion input").fill("");
  });

  it("chats with a priced model and with an id the list does not show, whose cost stays unknown", async () => {
    await page.goto(`${stack.url}/#/`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, MODEL);
    // The picker's list shows each model's price: the user's own for the self-hosted model, none invented for the other.
    await openModelPicker(page);
    const models = page.getByRole("listbox", { name: "Models" });
    assert.match(
      (await models.getByRole("option", { name: new RegExp(`^${MODEL}`) }).textContent())!,
      /\$100\.00 \/ \$400\.00 per 1M/,
    );
    assert.doesNotMatch(
      (await models.getByRole("option", { name: /^whisper-tiny/ }).textContent())!,
      /\$|\?/,
      "no invented price",
    );
    await modelField(page).press("Escape");
    await page.getByLabel("Message").fill("hello");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant", { hasText: "You said: hello" }).waitFor();
    await page.locator(".message.assistant .usage").first().waitFor();
    assert.match(
      (await page.locator(".message.assistant .usage").first().textContent())!,
      /out · \$[\d.]+ \(estimated\)/,
    );

    await (await openModelPicker(page)).fill(`${MODEL}@main`);
    await page.getByRole("option", { name: `Use model id “${MODEL}@main”` }).click();
    assert.equal(await chosenModel(page), `${MODEL}@main`);
    await page.getByLabel("Message").fill("again");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant", { hasText: "You said: again" }).waitFor();
    await page.locator(".message.assistant .usage").nth(1).waitFor();
    assert.match((await page.locator(".message.assistant .usage").nth(1).textContent())!, /cost unknown$/);
    await page.locator(".totals", { hasText: "cost unknown (1 of 2 turns)" }).waitFor();
    await screenshot(page, "11-self-hosted-chat");
  });

  it("shows the server's words when the model does not exist", async () => {
    // Nothing in the list matches, so Enter uses the typed id.
    await (await openModelPicker(page)).fill("no-such-model");
    await modelField(page).press("Enter");
    await page.getByLabel("Message").fill("anyone there");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".turn-error", { hasText: "404: The model `no-such-model` does not exist." }).waitFor();
  });

  it("says once that a model cannot use tools, answers without them, and lets Settings, Providers offer them again", async () => {
    await page.goto(`${stack.url}/#/`);
    await page.getByRole("button", { name: "New chat" }).click();
    // mock-llm plays Ollama: gemma-2b refuses any request that offers tools.
    await (await openModelPicker(page)).fill("gemma-2b");
    await modelField(page).press("Enter");
    await page.getByLabel("Message").fill("tools or not");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant", { hasText: "You said: tools or not" }).waitFor();
    const notice = page.locator(".message.assistant .notice");
    await notice.waitFor();
    assert.match((await notice.textContent())!, /gemma-2b cannot use tools.*does not support tools/);
    assert.equal(await page.locator(".turn-error").count(), 0, "no error: the turn was answered");
    await screenshot(page, "12-self-hosted-no-tools");

    await page.goto(`${stack.url}/#/settings/providers`);
    const row = page
      .getByRole("list", { name: "Models with a price or kind" })
      .getByRole("listitem")
      .filter({ hasText: "gemma-2b" });
    await row.getByText("no tools").waitFor();
    await row.getByRole("button", { name: "Offer tools" }).click();
    await row.waitFor({ state: "detached" });
    const { settings } = await (await stack.api("GET", "/api/settings/resolved")).json();
    assert.equal(settings.models.find((m: { id: string }) => m.id === "gemma-2b")?.tools, undefined);
  });
});

describe("web UI: an answer cut off at the token limit", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;

  before(async function () {
    ui = await startBrowserStack(this);
  });

  after(() => ui?.stop());

  it("says so under the answer instead of showing it as complete", async () => {
    const { stack, page } = ui!;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/short");
    await page.getByLabel("Message").fill("tell me everything");
    await page.getByLabel("Message").press("Enter");
    const answer = page.locator(".message.assistant[data-status='truncated']");
    await answer.waitFor();
    assert.match((await answer.textContent())!, /ran out of[\s\S]*Cut off at the token limit\./);
  });
});
