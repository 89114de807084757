// Chat view fixes (issue 17) in a real Chromium: reasoning stays (collapsed) after the turn and a
// reload, titles are plain text, and a new chat starts with the model last used in the project.
import assert from "node:assert/strict";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { chooseModel, chosenModel } from "../helpers/model-picker";

describe("web UI: the chat view", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  before(async function () {
    ui = await startBrowserStack(this);
  });
  after(() => ui?.stop());

  it("keeps the reasoning collapsed in the transcript, titles chats in plain text, and reuses the last model", async () => {
    const { stack, page } = ui!;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/reasoner");
    await page.getByLabel("Message").fill("**bold** question");
    await page.getByLabel("Message").press("Enter");
    await page.locator(".message.assistant", { hasText: "You said:" }).waitFor();
    await page.reload();
    const reasoning = page.locator(".message.assistant details.reasoning");
    await reasoning.waitFor();
    assert.equal(await reasoning.getAttribute("open"), null, "collapsed");
    await reasoning.locator("summary").click();
    assert.match((await reasoning.textContent())!, /Let me think\./);
    await page.getByRole("link", { name: "Back to chats" }).click();
    await page.locator(".chat-row", { hasText: "bold question" }).waitFor();
    assert.ok(!(await page.locator(".chat-row").first().textContent())!.includes("**"));
    await page.getByRole("button", { name: "New chat" }).click();
    await page.locator(".chat-view").waitFor();
    // The view shows before the new chat has loaded: wait for the picker to show the chat's model.
    await page.getByRole("button", { name: "Model: Reasoner" }).waitFor();
    assert.equal(await chosenModel(page), "fake/reasoner", "the model last used in the project");
  });
});
