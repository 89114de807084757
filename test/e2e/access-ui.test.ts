// Settings, Access and passkeys (issue 19) in a real Chromium against `parley serve`: a password set,
// refused and used at the sign-in page; a passkey registered with Chromium's virtual authenticator
// (DevTools protocol), renamed, used to sign in from a fresh context, whose session is then revoked
// from the first; the localhost offer on 127.0.0.1; and axe-core at 320 px in light and dark.
import assert from "node:assert/strict";
import fs from "node:fs";
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import { screenshot } from "../helpers/browser";
import { seriousViolations } from "../helpers/axe";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";

const PASSWORD = "correct horse battery staple";
/** The fresh context that signs in with the passkey tells itself apart in the sessions list by this. */
const PASSKEY_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 PasskeyContext/1";

type VirtualCredential = {
  credentialId: string;
  isResidentCredential: boolean;
  rpId?: string;
  privateKey: string;
  userHandle?: string;
  signCount: number;
};

/** Chromium's virtual authenticator on this page (one per DevTools session): internal, with user verification. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

describe("web UI: access, password, passkeys and sessions", function () {
  this.timeout(180_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  /** The first browser: signed in on localhost with the token link, where it sets everything up. */
  let owner: BrowserContext;
  let page: Page;
  let ownerAuthenticator: { cdp: CDPSession; authenticatorId: string };
  const contexts: BrowserContext[] = [];
  const localhost = () => `http://localhost:${new URL(stack.url).port}`;

  async function freshContext(options: { userAgent?: string } = {}): Promise<Page> {
    const context = await ui!.browser.newContext({ viewport: { width: 900, height: 900 }, ...options });
    contexts.push(context);
    return context.newPage();
  }

  async function openAccess(target: Page): Promise<void> {
    await target.goto(`${localhost()}/#/settings/access`);
    // A page already there only changed its hash: read everything again.
    await target.reload();
    await target.getByRole("heading", { name: "Access and passkeys" }).waitFor();
  }

  const signInPage = (target: Page) => target.getByRole("heading", { name: "Sign in to Parley" });

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack } = ui);
    owner = await ui.browser.newContext({ viewport: { width: 900, height: 900 } });
    contexts.push(owner);
    page = await owner.newPage();
    await page.goto(`${localhost()}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await ui?.stop();
  });

  it("on 127.0.0.1 says passkeys need a host name and links the same page on localhost", async () => {
    const onIp = ui!.page;
    await onIp.goto(`${stack.url}/?token=${stack.token}`);
    await onIp.getByRole("heading", { name: "Chats" }).waitFor();
    await onIp.getByRole("link", { name: "Settings" }).click();
    await onIp.getByRole("link", { name: "Access" }).click();
    await onIp.getByRole("heading", { name: "Access and passkeys" }).waitFor();
    const offer = onIp.getByRole("link", { name: `${localhost()}/#/settings/access` });
    assert.equal(await offer.getAttribute("href"), `${localhost()}/#/settings/access`);
    assert.match((await onIp.getByRole("note").textContent())!, /need a host name.*127\.0\.0\.1/s);
    assert.equal(await onIp.getByRole("button", { name: "Add a passkey" }).count(), 0);
    await screenshot(onIp, "access-01-ip-address");
  });

  it("sets a password with errors at the fields; a fresh browser sees the sign-in page and signs in with it", async () => {
    await openAccess(page);
    const password = page.getByLabel("Password", { exact: true });
    const confirm = page.getByLabel("Confirm password");
    await password.fill("too short");
    await confirm.fill("too short");
    await page.getByRole("button", { name: "Set password" }).click();
    assert.equal(await password.getAttribute("aria-invalid"), "true");
    assert.match(
      (await password.evaluate(
        (el) => document.getElementById(el.getAttribute("aria-describedby")!.split(" ")[1]!)!.textContent,
      ))!,
      /at least 12 characters/,
    );
    assert.ok(await password.evaluate((el) => el === document.activeElement), "the field in error gets the focus");
    await password.fill(PASSWORD);
    await confirm.fill(`${PASSWORD}!`);
    await page.getByRole("button", { name: "Set password" }).click();
    assert.equal(await confirm.getAttribute("aria-invalid"), "true");
    await page.getByText("The two passwords differ.").waitFor();
    await confirm.fill(PASSWORD);
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByRole("status").filter({ hasText: "Password set." }).waitFor();
    assert.equal((await (await stack.api("GET", "/api/access/status")).json()).passwordSet, true);

    // Setting it ended every session but gave this one a fresh cookie: the page still works after a reload.
    await page.reload();
    await page.getByRole("heading", { name: "Access and passkeys" }).waitFor();
    await page.getByRole("button", { name: "Change password" }).waitFor();

    const fresh = await freshContext();
    await fresh.goto(`${localhost()}/`);
    await signInPage(fresh).waitFor();
    await fresh.getByLabel("Password", { exact: true }).fill("not the password");
    await fresh.getByRole("button", { name: "Sign in", exact: true }).click();
    await fresh.getByRole("alert").filter({ hasText: "that password is not right" }).waitFor();
    await fresh.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await fresh.getByRole("button", { name: "Sign in", exact: true }).click();
    await fresh.getByRole("heading", { name: "Chats" }).waitFor();
  });

  it("refuses a change with a wrong current password, at that field", async () => {
    await page.getByLabel("Current password").fill("wrong current password");
    await page.getByLabel("Password", { exact: true }).fill("another long password");
    await page.getByLabel("Confirm password").fill("another long password");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByText("The current password is not right.").waitFor();
    assert.equal(await page.getByLabel("Current password").getAttribute("aria-invalid"), "true");
  });

  it("registers a passkey named in the UI, renames it, and signs a fresh browser in with it", async () => {
    ownerAuthenticator = await virtualAuthenticator(page);
    await page.getByLabel("Passkey name").fill("Test key");
    await page.getByRole("button", { name: "Add a passkey" }).click();
    const item = page.getByRole("group", { name: "Test key", exact: true });
    await item.waitFor();
    await page.getByRole("status").filter({ hasText: "Added “Test key”" }).waitFor();
    assert.match((await item.textContent())!, /last used never/);

    await item.getByRole("button", { name: "Rename" }).click();
    await page.getByLabel("New name for Test key").fill("Laptop key");
    await page.getByRole("button", { name: "Save name" }).click();
    await page.getByRole("group", { name: "Laptop key", exact: true }).waitFor();
    const listed = await (await stack.api("GET", "/api/access/passkeys")).json();
    assert.deepEqual(
      listed.map((p: { name: string }) => p.name),
      ["Laptop key"],
    );

    // The credential lives in this page's virtual authenticator: the fresh context gets a copy in its own.
    const { credentials } = (await ownerAuthenticator.cdp.send("WebAuthn.getCredentials", {
      authenticatorId: ownerAuthenticator.authenticatorId,
    })) as { credentials: VirtualCredential[] };
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]!.rpId, "localhost");

    const second = await freshContext({ userAgent: PASSKEY_AGENT });
    const theirs = await virtualAuthenticator(second);
    for (const credential of credentials)
      await theirs.cdp.send("WebAuthn.addCredential", { authenticatorId: theirs.authenticatorId, credential });
    await second.goto(`${localhost()}/`);
    await signInPage(second).waitFor();
    await screenshot(second, "access-02-sign-in");
    await second.getByRole("button", { name: "Sign in with a passkey" }).click();
    await second.getByRole("heading", { name: "Chats" }).waitFor();

    // From the first browser: the new session is listed, with its browser, and revoked.
    await openAccess(page);
    assert.match(
      (await page.getByRole("group", { name: "Laptop key", exact: true }).textContent())!,
      /last used (?!never)/,
    );
    const session = page.getByRole("group").filter({ hasText: "PasskeyContext/1" });
    await session.waitFor();
    assert.match((await session.textContent())!, /Chrome 140 on Linux/);
    assert.match((await session.textContent())!, /Signed in .* · last seen /);
    assert.equal(await page.getByText("This session", { exact: true }).count(), 1);
    await screenshot(page, "access-03-page");
    await session.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("status").filter({ hasText: "Session revoked." }).waitFor();
    assert.equal(await page.getByRole("group").filter({ hasText: "PasskeyContext/1" }).count(), 0);

    // The second browser's next API call finds its session gone and shows the sign-in page.
    await second.evaluate(() => (window.location.hash = "#/settings/access"));
    await signInPage(second).waitFor();
    await second.goto(`${localhost()}/`);
    await signInPage(second).waitFor();
  });

  it("revokes all other sessions, and the password-signed-in browser is logged out", async () => {
    const others = (await (await stack.api("GET", "/api/access/sessions")).json()).filter(
      (s: { current: boolean }) => !s.current,
    );
    assert.ok(others.length >= 1, "the browser signed in with the password is still there");
    await page.getByRole("button", { name: "Revoke all other sessions" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: /Revoked \d+ sessions?\./ })
      .waitFor();
    assert.equal(await page.getByRole("button", { name: "Revoke all other sessions" }).isDisabled(), true);
    const passwordBrowser = contexts[1]!.pages()[0]!;
    await passwordBrowser.reload();
    await signInPage(passwordBrowser).waitFor();
    // This one stays signed in.
    await page.reload();
    await page.getByRole("heading", { name: "Access and passkeys" }).waitFor();
  });

  it("saves the idle days of a session", async () => {
    const field = page.getByLabel("Sign a browser out after this many idle days");
    assert.equal(await field.inputValue(), "7");
    await field.fill("3");
    await field.press("Enter");
    await field.blur();
    await page.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    const settings = await (await stack.api("GET", "/api/settings/app")).json();
    assert.equal(settings.access.sessionIdleDays, 3);
  });

  it("is readable at 320 px with no serious axe violations, light and dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await ui!.browser.newContext({ viewport: { width: 320, height: 900 }, colorScheme });
      try {
        const narrow = await context.newPage();
        await narrow.goto(`${localhost()}/?token=${stack.token}`);
        await narrow.getByRole("heading", { name: "Chats" }).waitFor();
        await openAccess(narrow);
        await narrow
          .getByRole("group", { name: "Laptop key", exact: true })
          .getByRole("button", { name: "Delete" })
          .click();
        await narrow.getByRole("group", { name: "Delete Laptop key?" }).waitFor();
        const width = await narrow.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 320, `nothing sticks out sideways at 320 px (page is ${width} px wide)`);
        await screenshot(narrow, `access-320-${colorScheme}`);
        const violations = await seriousViolations(narrow);
        assert.deepEqual(violations, [], `${colorScheme}: ${JSON.stringify(violations, null, 2)}`);
      } finally {
        await context.close();
      }
    }
  });

  it("in VS Code's panel (no WebAuthn) says so, still lists the passkeys, and offers Open in Browser on localhost", async () => {
    const panel = await freshContext();
    const serverUrl = stack.url;
    // The webview's set-up, imitated: the host's page with its bootstrap JSON (the token), and acquireVsCodeApi.
    const index = fs.readFileSync("media/webview/index.html", "utf8");
    const bootstrap = `<script type="application/json" id="parley-bootstrap">${JSON.stringify({ serverUrl, token: stack.token })}</script>`;
    await panel.route(`${serverUrl}/`, (route) =>
      route.fulfill({ contentType: "text/html", body: index.replace("</head>", `${bootstrap}</head>`) }),
    );
    await panel.addInitScript(() => {
      const posted: unknown[] = [];
      (window as unknown as { posted: unknown[] }).posted = posted;
      (window as unknown as { acquireVsCodeApi: unknown }).acquireVsCodeApi = () => ({
        postMessage(message: { type: string }) {
          posted.push(message);
          if (message.type === "hello") setTimeout(() => window.postMessage({ type: "ready" }, window.location.origin));
        },
      });
    });
    await panel.goto(`${serverUrl}/#/settings/access`);
    await panel.getByRole("heading", { name: "Access and passkeys" }).waitFor();
    assert.equal(await panel.evaluate(() => document.documentElement.dataset.host), "vscode");
    await panel.getByRole("note").filter({ hasText: "its webviews have no WebAuthn" }).waitFor();
    assert.equal(await panel.getByRole("button", { name: "Add a passkey" }).count(), 0);
    await panel.getByRole("group", { name: "Laptop key", exact: true }).waitFor();
    await screenshot(panel, "access-04-vscode-panel");
    await panel.getByRole("button", { name: "Open in Browser" }).click();
    const posted = await panel.evaluate(
      () => (window as unknown as { posted: { type: string; url?: string }[] }).posted,
    );
    assert.deepEqual(posted.at(-1), {
      type: "openExternal",
      url: `${localhost()}/?token=${encodeURIComponent(stack.token)}#/settings/access`,
    });
    assert.equal(
      await panel.getByText("This session", { exact: true }).count(),
      0,
      "the panel uses the token, not a session",
    );
  });

  it("deletes the passkey after asking, and removes the password with the current one", async () => {
    await openAccess(page);
    await page.getByRole("group", { name: "Laptop key", exact: true }).getByRole("button", { name: "Delete" }).click();
    await page
      .getByRole("group", { name: "Delete Laptop key?" })
      .getByRole("button", { name: "Delete passkey" })
      .click();
    await page.getByText("No passkeys yet.").waitFor();

    await page.getByRole("button", { name: "Remove password" }).click();
    assert.equal(
      await page.getByLabel("Current password").getAttribute("aria-invalid"),
      "true",
      "removing asks for the current password",
    );
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Remove password" }).click();
    await page.getByRole("status").filter({ hasText: "Password removed." }).waitFor();
    await page.getByRole("button", { name: "Set password" }).waitFor();
    assert.deepEqual(await (await stack.api("GET", "/api/access/status")).json(), {
      passwordSet: false,
      passkeys: 0,
      authenticated: true,
    });
  });
});
