// web_fetch in the web UI (contract 7.5), in a real Chromium against `parley serve`, the fake gateway
// and a real page on loopback (reached through the user's `webFetch.allowHosts`): a model's call asks
// (the default gate), Allow fetches, and the card shows where the page came from and its markdown;
// `@web_fetch` picked in the @ popup runs from the composer; the gate row on This project; axe clean
// at 320 and 1280 px, light and dark.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { popup } from "../helpers/mention-fixture";
import { chooseModel } from "../helpers/model-picker";
import { checkNarrowInBothThemes } from "../helpers/narrow-screens";
import type { Stack } from "../helpers/stack";
import { startWebServer, type WebServer } from "../helpers/web-server";

const PAGE = "<html><body><h1>Release notes</h1><p>Version <b>2</b> is out.</p><script>track()</script></body></html>";

describe("web UI: web_fetch", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;
  let web: WebServer;
  let chatUrl = "";

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    web = await startWebServer({
      "/notes": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE),
    });
    const saved = await stack.api("PATCH", "/api/settings/app", { webFetch: { allowHosts: ["127.0.0.1"] } });
    assert.equal(saved.status, 200);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });
  after(async () => {
    await ui?.stop();
    await web?.close();
  });

  const card = () => page.getByRole("group", { name: `web_fetch 127.0.0.1:${web.port}`, exact: true });
  const waiting = () => page.getByRole("region", { name: "Waiting for you" });
  const turnEnded = () => page.getByRole("button", { name: "Send" }).waitFor();

  it("asks before a model's call, and the card shows the page's source line and markdown once allowed", async () => {
    await page.getByRole("button", { name: "New chat" }).click();
    await chooseModel(page, "fake/tools");
    chatUrl = page.url();
    const url = web.url("/notes");
    await page.getByLabel("Message").fill(`mcp: web_fetch ${JSON.stringify({ url })}`);
    await page.getByLabel("Message").press("Enter");
    await waiting().getByRole("button", { name: "Allow" }).waitFor();
    assert.equal(await card().locator(".status").first().textContent(), "waiting for you");
    assert.equal(web.hits.length, 0, "nothing is fetched before the user allows it");
    await screenshot(page, "web-fetch-01-approval");
    await waiting().getByRole("button", { name: "Allow" }).click();
    await page.locator(".message.assistant", { hasText: "Tool said:" }).filter({ hasText: "Release notes" }).waitFor();
    await turnEnded();
    assert.equal(await card().locator(".status").textContent(), "done");
    assert.equal(await card().locator(".summary").textContent(), url);
    await card().getByRole("button", { expanded: false }).first().click();
    assert.equal(
      await card().getByLabel("Output").textContent(),
      `[200 text/html from ${url}]\n\n# Release notes\n\nVersion **2** is out.`,
    );
    await screenshot(page, "web-fetch-02-card");
  });

  it("runs `@web_fetch` picked in the @ popup straight from the composer, under its gate", async () => {
    const p = popup(page);
    await p.type("@web_f");
    await p.waitLabels((labels) => labels[0] === "web_fetch", "web_fetch in the popup");
    await p.box.press("Enter");
    assert.equal(await p.box.inputValue(), "@web_fetch:url=``");
    await p.parameters.waitFor();
    const url = web.url("/notes?from=composer");
    await p.box.pressSequentially(url);
    assert.equal(await p.box.inputValue(), `@web_fetch:url=\`${url}\``);
    await p.box.press("Escape");
    await p.box.press("Enter");
    await waiting().getByRole("button", { name: "Allow" }).click();
    await turnEnded();
    const direct = card().last();
    await direct.getByRole("button", { expanded: true }).waitFor();
    assert.match((await direct.getByLabel("Output").textContent())!, /^\[200 text\/html from .*from=composer\]/);
    assert.equal(await page.getByLabel("Message").inputValue(), "");
  });

  it("lists web_fetch among the native tools on This project, gated ask", async () => {
    await page.goto(`${stack.url}/#/settings/project`);
    const gate = page.getByRole("combobox", { name: "Gate for web_fetch", exact: true });
    await gate.waitFor();
    assert.equal(await gate.inputValue(), "ask");
  });

  it("is readable at 320 and 1280 px with the card open, with no serious axe violation, light and dark", async () => {
    const show = async (narrow: Page) => {
      await narrow.goto(`${stack.url}/?token=${stack.token}`);
      await narrow.getByRole("heading", { name: "Chats" }).waitFor();
      await narrow.goto(chatUrl);
      const first = narrow.getByRole("group", { name: `web_fetch 127.0.0.1:${web.port}`, exact: true }).first();
      await first.getByRole("button", { expanded: false }).first().click();
      await first.getByLabel("Output").waitFor();
    };
    await checkNarrowInBothThemes(ui!.browser, "web-fetch", show);
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
      try {
        const wide = await context.newPage();
        await show(wide);
        await screenshot(wide, `web-fetch-1280-${colorScheme}`);
        assert.deepEqual(await seriousViolations(wide), [], colorScheme);
      } finally {
        await context.close();
      }
    }
  });
});
