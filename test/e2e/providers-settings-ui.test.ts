// Settings, Providers (issue 37, item 13) in a real Chromium against `parley serve` and the fake
// gateway: the Authentication choice shows only what it selects (the key field for API key; Sign in
// and the accounts for Signed-in account), an account row says it is an account (the key shows only as
// a hint), and Model prices and kinds shows for a self-hosted base URL, not the hosted gateway's.
// At 320 and 1280 px, light and dark, with axe finding nothing serious.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { checkScreens } from "../helpers/screens";
import type { Stack } from "../helpers/stack";

const HOSTED = "https://openrouter.ai/api/v1";

describe("web UI: Settings, Providers", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;

  const mode = (on: Page) => on.getByRole("group", { name: "Authentication" });
  const keyField = (on: Page) => on.locator("#api-key");
  const signIn = (on: Page) => on.getByRole("button", { name: "Sign in with the gateway" });
  const prices = (on: Page) => on.getByRole("heading", { name: "Model prices and kinds" });
  const accounts = (on: Page) => on.getByRole("list", { name: "Signed-in accounts" });
  const gateway = async () =>
    (await (await stack.api("GET", "/api/settings/resolved")).json()).settings.providers.find(
      (p: { id: string }) => p.id === "gateway",
    );
  const setGateway = async (fields: Record<string, unknown>) =>
    assert.equal(
      (await stack.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", ...fields }] })).status,
      200,
    );

  /** An account signed in through the gateway's pages, as a browser would follow them (when none is yet). */
  const ensureAccount = async () => {
    if ((await (await stack.api("GET", "/api/providers/gateway/accounts")).json()).length > 0) return;
    const start = await (await stack.api("POST", "/api/providers/gateway/oauth/start", {})).json();
    const authorizeUrl = new URL(start.authorizeUrl);
    const approve = /href="([^"]+)"/.exec(await (await fetch(authorizeUrl)).text())![1]!.replaceAll("&amp;", "&");
    const redirect = await fetch(new URL(approve, authorizeUrl), { redirect: "manual" });
    assert.equal((await fetch(redirect.headers.get("location")!)).status, 200);
  };

  const openProviders = async (on: Page) => {
    await on.goto(`${stack.url}/#/settings/providers`);
    await on.getByRole("heading", { name: "Gateway" }).waitFor();
    await mode(on).waitFor();
  };

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  it("with API key chosen, shows the key field and neither Sign in nor accounts", async () => {
    await openProviders(page);
    assert.equal(await mode(page).getByRole("radio", { name: "API key" }).isChecked(), true);
    await keyField(page).waitFor();
    await page.getByText("(a key is saved)").waitFor();
    assert.equal(await signIn(page).count(), 0, "no Sign in");
    assert.equal(await accounts(page).count(), 0, "no account rows");
    await screenshot(page, "providers-api-key-1280");
  });

  it("with Signed-in account chosen, shows Sign in and the accounts, not the key field; a row says it is an account", async () => {
    await openProviders(page);
    await mode(page).getByRole("radio", { name: "Signed-in account" }).check();
    await signIn(page).waitFor();
    await keyField(page).waitFor({ state: "detached" });
    await page.getByText("No account is signed in yet.").waitFor();
    await mode(page).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    assert.equal((await gateway()).authMode, "oauth");

    const popup = page.context().waitForEvent("page");
    await signIn(page).click();
    const authorize = await popup;
    await authorize.locator("#authorize").click();
    const row = accounts(page).getByRole("listitem");
    await row.waitFor();
    const listed = await (await stack.api("GET", "/api/providers/gateway/accounts")).json();
    assert.equal(listed.length, 1);
    const text = (await row.textContent())!.replace(/\s+/g, " ").trim();
    assert.match(text, /^Gateway account signed in .+ · key \S+…/, `the row names an account: ${text}`);
    assert.ok(text.includes(`key ${listed[0].label}…`), "the key's first characters as a hint");
    await row.getByText("in use").waitFor();
    await row.getByRole("button", { name: "Sign out" }).waitFor();
    await page.getByRole("status").filter({ hasText: "Signed in: the new account is in use." }).waitFor();
    await authorize.close().catch(() => {});
    await screenshot(page, "providers-account-1280");

    await mode(page).getByRole("radio", { name: "API key" }).check();
    await keyField(page).waitFor();
    assert.equal(await accounts(page).count(), 0, "the accounts go with the choice");
    assert.equal(await signIn(page).count(), 0);
    await mode(page).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    assert.equal((await gateway()).authMode, "apiKey");
  });

  it("shows Model prices and kinds for a self-hosted base URL only, not for the hosted gateway", async () => {
    await openProviders(page);
    await prices(page).waitFor();
    await setGateway({ baseUrl: HOSTED });
    await prices(page).waitFor({ state: "detached" });
    await page.reload();
    await mode(page).waitFor();
    assert.equal(await prices(page).count(), 0, "hidden for the hosted gateway, after a reload too");
    await screenshot(page, "providers-hosted-1280");

    await setGateway({ baseUrl: stack.gateway.baseUrl });
    await prices(page).waitFor();
  });

  it("fits 320 and 1280 px for each choice, light and dark, with no serious axe violation", async () => {
    const opened = async (on: Page, choice: "API key" | "Signed-in account") => {
      await on.goto(`${stack.url}/?token=${stack.token}`);
      await on.getByRole("heading", { name: "Chats" }).waitFor();
      await openProviders(on);
      await prices(on).waitFor();
      if (choice === "API key") await keyField(on).waitFor();
      else await accounts(on).getByRole("listitem").waitFor();
    };
    await checkScreens(ui!.browser, "providers-key", (on) => opened(on, "API key"));
    await ensureAccount();
    await setGateway({ authMode: "oauth" });
    await checkScreens(ui!.browser, "providers-account", (on) => opened(on, "Signed-in account"));
    await setGateway({ authMode: "apiKey" });
  });
});
