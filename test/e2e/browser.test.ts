// The web UI in a real Chromium against `parley serve` and the fake gateway.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";
import { chooseModel } from "../helpers/model-picker";
import { startedChat } from "../helpers/started-chat";

describe("web UI in Chromium", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
  });

  after(() => ui?.stop());

  it("logs in by the token link, and the address bar keeps no token", async () => {
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
    assert.equal(new URL(page.url()).search, "");
    assert.ok((await page.textContent(".project-name"))?.includes("my-project"));
    await screenshot(page, "01-chats-empty");
  });

  it("picks a model, sends a message, and shows the streamed answer with usage", async () => {
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/echo");
    await page.getByLabel("Message").fill("Hello from Chromium");
    await page.getByLabel("Message").press("Enter");
    const answer = page.locator(".message.assistant").filter({ hasText: "You said: Hello from Chromium" });
    await answer.waitFor();
    await page.locator(".message.assistant .usage").first().waitFor();
    assert.match((await page.locator(".message.assistant .usage").first().textContent())!, /in · .* out · \$/);
    assert.match((await page.locator(".totals").textContent())!, /This chat: .* tokens/);
    await screenshot(page, "02-chat-answer");
  });

  it("renders model Markdown without running script", async () => {
    await page.getByLabel("Message").fill('<img src=x onerror="window.__pwned=1"> **bold** `code`');
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant strong", { hasText: "bold" }).waitFor();
    assert.equal(await page.evaluate(() => (window as { __pwned?: number }).__pwned), undefined);
    assert.equal(await page.locator(".message.assistant img[onerror]").count(), 0);
    const csp = (await page.request.get(`${stack.url}/`)).headers()["content-security-policy"];
    assert.match(csp!, /img-src 'self' data:/, "no remote images from model output");
  });

  it("stops a streaming answer and keeps what arrived", async () => {
    await chooseModel(page, "fake/slow");
    await page.getByLabel("Message").fill("Tell me a long story");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant.streaming", { hasText: "Thinking out loud" }).waitFor();
    await screenshot(page, "03-streaming");
    await page.getByRole("button", { name: "Stop" }).click();
    await page.locator(".message.assistant[data-status='cancelled']").waitFor();
    assert.match(
      (await page.locator(".message.assistant[data-status='cancelled']").textContent())!,
      /Thinking out loud[\s\S]*Stopped\./,
    );
  });

  it("finds the chat again after a reload", async () => {
    const chatUrl = page.url();
    await page.reload();
    await page.locator(".message.user", { hasText: "Hello from Chromium" }).waitFor();
    assert.equal(page.url(), chatUrl);
    await page.goto(`${stack.url}/#/`);
    await page.locator(".chat-row", { hasText: "Hello from Chromium" }).waitFor();
  });

  it("saves a chat default on change, with a status line, and keeps it after a reload", async () => {
    await page.goto(`${stack.url}/#/settings/defaults`);
    const toggle = page.locator("vscode-checkbox#enter-newline");
    const checked = () => toggle.evaluate((el) => (el as HTMLInputElement).checked);
    await toggle.waitFor();
    assert.equal(await checked(), false);
    await toggle.click();
    await page.locator(".row", { has: toggle }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await screenshot(page, "04-chat-defaults");
    await page.reload();
    await toggle.waitFor();
    await page.waitForFunction(
      () => (document.querySelector("vscode-checkbox#enter-newline") as HTMLInputElement | null)?.checked === true,
    );
    const { settings } = await (await stack.api("GET", "/api/settings/resolved")).json();
    assert.equal(settings.chat.enterInsertsNewline, true);
  });

  it("keeps two open UIs in sync through /api/events", async () => {
    const other = await page.context().newPage();
    await other.goto(`${stack.url}/#/settings/defaults`);
    await page.goto(`${stack.url}/#/settings/defaults`);
    await other.getByLabel("Default prompt style").waitFor();
    await page.getByLabel("Default prompt style").selectOption("extensive");
    await other.waitForFunction(
      () => (document.querySelector("#prompt-style") as HTMLSelectElement | null)?.value === "extensive",
    );
    // A chat started in one UI shows up in the other's list.
    await other.goto(`${stack.url}/#/`);
    const before = await other.locator(".chat-row").count();
    await startedChat(stack, (await (await stack.api("GET", "/api/projects")).json())[0].id, {
      title: "Made elsewhere",
    });
    await other.locator(".chat-row", { hasText: "Made elsewhere" }).waitFor();
    assert.equal(await other.locator(".chat-row").count(), before + 1);
    await other.close();
  });

  it("reads everything again when its event stream comes back, so what changed meanwhile shows", async () => {
    const other = await page.context().newPage();
    // The stream is down (refused) while the page loads and while a chat is made elsewhere.
    await other.route("**/api/events", (route) => route.abort());
    await other.goto(`${stack.url}/#/`);
    await other.locator(".chat-row").first().waitFor();
    const projectId = (await (await stack.api("GET", "/api/projects")).json())[0].id;
    await startedChat(stack, projectId, { title: "Made while the stream was down" });
    // The page tries its stream again after the chat was made, and is refused again.
    await other.waitForRequest((request) => new URL(request.url()).pathname === "/api/events", { timeout: 20_000 });
    assert.equal(
      await other.locator(".chat-row", { hasText: "Made while the stream was down" }).count(),
      0,
      "no event came",
    );
    // Its next try gets through: the list is read again.
    await other.unroute("**/api/events");
    await other.locator(".chat-row", { hasText: "Made while the stream was down" }).waitFor({ timeout: 20_000 });
    await other.close();
  });

  it("shows the providers page with the saved key and no key in the page", async () => {
    await page.goto(`${stack.url}/#/settings/providers`);
    await page.getByText("(a key is saved)").waitFor();
    assert.ok(!(await page.content()).includes("sk-fake-e2e"));
    await screenshot(page, "05-providers");
  });

  it("removes and pastes a key on the providers page, never showing it back", async () => {
    await page.getByRole("button", { name: "Remove" }).click();
    await page.getByText("(a key is saved)").waitFor({ state: "detached" });
    await page.locator("#api-key input").fill("sk-fake-pasted-in-the-ui");
    await page.getByRole("button", { name: "Save key" }).click();
    await page.getByText("(a key is saved)").waitFor();
    assert.equal(await page.locator("#api-key input").inputValue(), "", "the field is cleared after saving");
    assert.ok(!(await page.content()).includes("sk-fake-pasted-in-the-ui"));
    const { settings } = await (await stack.api("GET", "/api/settings/resolved")).json();
    assert.equal(settings.providers.find((p: { id: string }) => p.id === "gateway").hasApiKey, true);
  });
});
