// A project that points the gateway at another server: in real Chromium, at the side panel's 320 px,
// the chat refuses to send the saved key there, says both origins, and lets the user save a key for
// that server, after which the message goes through (to that server, with that key only).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { FakeGateway } from "../fake-gateway/server";
import { chooseModel } from "../helpers/model-picker";

describe("web UI: a key for another origin", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let other: FakeGateway | undefined;

  before(async function () {
    other = await new FakeGateway().start();
    ui = await startBrowserStack(this, { viewport: { width: 320, height: 800 } });
    fs.writeFileSync(
      path.join(ui.stack.projectDir, ".app.json"),
      JSON.stringify({ providers: [{ id: "gateway", baseUrl: other.baseUrl }] }),
    );
  });

  after(async () => {
    await ui?.stop();
    await other?.stop();
  });

  it("refuses, names the new origin, and sends once a key for it is saved", async () => {
    const { stack, page } = ui!;
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/echo");
    await page.getByLabel("Message").fill("through the other server");
    await page.getByLabel("Message").press("Enter");
    const alert = page.getByRole("alert").filter({ hasText: "Parley will not send the key there" });
    await alert.waitFor();
    const origin = new URL(other!.baseUrl).origin;
    assert.ok((await alert.textContent())!.includes(origin));
    assert.equal(other!.completions.length, 0, "nothing reached the other server");
    const field = page.getByLabel(`API key for ${origin}`);
    await field.fill("sk-key-for-the-other-server");
    assert.equal(
      await page.evaluate(() => document.documentElement.scrollWidth),
      320,
      "nothing scrolls sideways at 320 px",
    );
    await screenshot(page, "20-origin-key-320");
    await page.getByRole("button", { name: "Save key for this server" }).click();
    await page.locator(".message.assistant").filter({ hasText: "You said: through the other server" }).waitFor();
    assert.equal(other!.completions.at(-1)!.headers.authorization, "Bearer sk-key-for-the-other-server");
    assert.ok(
      !fs.readFileSync(path.join(stack.projectDir, ".app.json"), "utf8").includes("sk-key"),
      "the key is not in the project",
    );
  });
});
