import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { codeChallengeS256 } from "../../src/gateway/pkce";
import { ATTEMPT_TTL_MS } from "../../src/gateway/gateway-oauth";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";

/** Follows the browser's path: Parley's authorize URL → the gateway's page → Authorize → callback. */
async function signIn(
  f: ChatFixture,
): Promise<{ page: Response; html: string; authorizeUrl: URL; state: string; callback: string }> {
  const start = await (
    await f.s.api("POST", "/api/providers/gateway/oauth/start", { returnTo: "/#/settings/providers" })
  ).json();
  const authorizeUrl = new URL(start.authorizeUrl);
  const pageHtml = await (await fetch(authorizeUrl)).text();
  const approve = /href="([^"]+)"/.exec(pageHtml)![1]!.replaceAll("&amp;", "&");
  const redirect = await fetch(new URL(approve, authorizeUrl), { redirect: "manual" });
  const callback = redirect.headers.get("location")!;
  const page = await fetch(callback);
  return { page, html: await page.text(), authorizeUrl, state: start.state, callback };
}

describe("sign in with the gateway (PKCE)", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture({ withKey: false })));
  afterEach(() => f.stop());

  it("builds the authorize URL with callback_url, an S256 challenge and state", async () => {
    const start = await (await f.s.api("POST", "/api/providers/gateway/oauth/start", {})).json();
    const url = new URL(start.authorizeUrl);
    assert.equal(`${url.origin}${url.pathname}`, f.gateway.authUrl);
    assert.equal(url.searchParams.get("callback_url"), `${f.s.url}/api/providers/gateway/oauth/callback`);
    assert.match(url.searchParams.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(url.searchParams.get("code_challenge_method"), "S256");
    assert.equal(url.searchParams.get("state"), start.state);
    assert.ok(start.state.length >= 32);
    assert.deepEqual(Object.keys(start).sort(), ["authorizeUrl", "state"], "the verifier never leaves the server");
  });

  it("exchanges the code with the verifier whose SHA-256 the gateway was shown, and stores an account", async () => {
    const { page, html, authorizeUrl } = await signIn(f);
    assert.equal(page.status, 200);
    assert.match(html, /data-ok="true"/);
    assert.match(page.headers.get("content-security-policy")!, /script-src 'nonce-/);
    const exchange = f.gateway.requests.find((r) => r.path === "/api/v1/auth/keys")!;
    const body = exchange.body as Record<string, string>;
    assert.deepEqual(Object.keys(body).sort(), ["code", "code_challenge_method", "code_verifier"]);
    assert.equal(body.code_challenge_method, "S256");
    assert.equal(codeChallengeS256(body.code_verifier!), authorizeUrl.searchParams.get("code_challenge"));
    assert.ok(body.code_verifier!.length >= 43 && body.code_verifier!.length <= 128);
    assert.equal(exchange.headers["x-title"], "Parley");

    const key = f.gateway.issuedKeys[0]!;
    const accounts = await (await f.s.api("GET", "/api/providers/gateway/accounts")).json();
    assert.equal(accounts.length, 1);
    assert.equal(accounts[0].label, key.slice(0, 16));
    assert.equal(accounts[0].active, true);
    const stored = JSON.parse((await f.s.runtime.secrets.get(`oauth/gateway/${accounts[0].id}`))!);
    // Bound to the origin that issued it.
    assert.deepEqual(
      { ...stored, createdAt: "x" },
      {
        accessToken: key,
        refreshToken: null,
        expiresAt: null,
        label: key.slice(0, 16),
        createdAt: "x",
        origin: new URL(f.gateway.baseUrl).origin,
      },
    );
    const resolved = (await (await f.s.api("GET", "/api/settings/resolved")).json()).settings;
    assert.equal(resolved.providers[0].authMode, "oauth");
  });

  it("returns to the app by itself: opener message in a popup, redirect with a flag otherwise", async () => {
    const { html } = await signIn(f);
    assert.match(html, /window\.opener\.postMessage\(message, window\.location\.origin\)/);
    assert.match(html, /"type":"parley\.oauth","ok":true/);
    assert.match(html, /window\.location\.replace\(back\)/);
    assert.match(html, /href="\.\.\/\.\.\/\.\.\/\.\.\/\?signin=ok#\/settings\/providers"/);
  });

  it("gives two sign-ins two rows with distinct labels; activate and remove work", async () => {
    await signIn(f);
    await signIn(f);
    const [first, second] = await (await f.s.api("GET", "/api/providers/gateway/accounts")).json();
    assert.notEqual(first.label, second.label);
    assert.equal(first.label.length, 16);
    assert.deepEqual([first.active, second.active], [false, true]);
    assert.equal((await f.s.api("POST", `/api/providers/gateway/accounts/${first.id}/activate`)).status, 204);
    assert.deepEqual(
      (await (await f.s.api("GET", "/api/providers/gateway/accounts")).json()).map((a: any) => a.active),
      [true, false],
    );
    assert.equal((await f.s.api("DELETE", `/api/providers/gateway/accounts/${first.id}`)).status, 204);
    const left = await (await f.s.api("GET", "/api/providers/gateway/accounts")).json();
    assert.deepEqual(
      left.map((a: any) => [a.id, a.active]),
      [[second.id, true]],
    );
    assert.equal((await f.s.api("DELETE", `/api/providers/gateway/accounts/${first.id}`)).status, 404);
    assert.equal((await f.s.api("POST", "/api/providers/gateway/accounts/a_nope/activate")).status, 404);
  });

  it("chats with the active account's key as a plain Bearer credential", async () => {
    await signIn(f);
    const chat = await newChat(f, { modelId: "fake/echo" });
    const events = await readEvents(await send(f, chat.id, { content: "hi" }));
    assert.equal(events.at(-1)!.data.finishReason, "stop");
    assert.equal(f.gateway.completions[0]!.headers.authorization, `Bearer ${f.gateway.issuedKeys[0]}`);
  });

  it("refuses a wrong state, a replayed callback and an expired attempt, storing nothing", async () => {
    const { callback } = await signIn(f);
    const replay = await fetch(callback);
    assert.equal(replay.status, 400);
    assert.match(await replay.text(), /not valid or was already used/);

    const forged = await fetch(`${f.s.url}/api/providers/gateway/oauth/callback?code=abc&state=forged`);
    assert.equal(forged.status, 400);
    const noState = await fetch(`${f.s.url}/api/providers/gateway/oauth/callback?code=abc`);
    assert.equal(noState.status, 400);

    const start = await (await f.s.api("POST", "/api/providers/gateway/oauth/start", {})).json();
    const realClock = f.s.runtime.gatewayOAuth.clock;
    f.s.runtime.gatewayOAuth.clock = () => realClock() + ATTEMPT_TTL_MS + 1;
    const expired = await fetch(`${f.s.url}/api/providers/gateway/oauth/callback?code=abc&state=${start.state}`);
    assert.equal(expired.status, 400);
    assert.match(await expired.text(), /expired/);
    assert.equal(
      (await (await f.s.api("GET", "/api/providers/gateway/accounts")).json()).length,
      1,
      "only the one good sign-in",
    );
  });

  for (const [label, failure, expected] of [
    ["a gateway error", 500, /refused the sign-in \(500/],
    ["malformed JSON", "malformed", /not JSON/],
    ["an answer without key", "nokey", /had no key/],
  ] as const) {
    it(`shows a clear message and stores nothing on ${label}`, async () => {
      f.gateway.authKeysFailure = failure;
      const { page, html } = await signIn(f);
      assert.equal(page.status, 400);
      assert.match(html, expected);
      assert.match(html, /"ok":false/);
      assert.deepEqual(await (await f.s.api("GET", "/api/providers/gateway/accounts")).json(), []);
      assert.deepEqual(await f.s.runtime.secrets.list("oauth/"), []);
    });
  }

  it("shows a clear message when the gateway is down at exchange time", async () => {
    const start = await (await f.s.api("POST", "/api/providers/gateway/oauth/start", {})).json();
    const authorize = await (await fetch(start.authorizeUrl)).text();
    const approve = /href="([^"]+)"/.exec(authorize)![1]!.replaceAll("&amp;", "&");
    const callback = (await fetch(new URL(approve, start.authorizeUrl), { redirect: "manual" })).headers.get(
      "location",
    )!;
    await f.gateway.stop();
    const page = await fetch(callback);
    assert.equal(page.status, 400);
    assert.match(await page.text(), /could not be reached/);
    assert.deepEqual(await f.s.runtime.secrets.list("oauth/"), []);
  });

  it("never lets a key reach a response, a log line, the project folder or the database", async () => {
    const bodies: string[] = [];
    const api = async (method: string, route: string, body?: unknown) => {
      const res = await f.s.api(method, route, body);
      bodies.push(await res.clone().text());
      return res;
    };
    const pasted = "sk-fake-pasted-0123456789abcdefghij";
    await api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: pasted, authMode: "apiKey" }] });
    await api("PATCH", `/api/settings/project?projectDir=${encodeURIComponent(f.s.projectDir)}`, {
      models: [{ id: "fake/echo", apiKey: pasted + "-model", label: "E" }],
    });
    const { html } = await signIn(f);
    bodies.push(html);
    const chat = await newChat(f, { modelId: "fake/echo" });
    bodies.push(JSON.stringify(await readEvents(await send(f, chat.id, { content: "hi" }))));
    for (const route of [
      "/api/settings/app",
      "/api/settings/resolved",
      `/api/settings/project?projectDir=${encodeURIComponent(f.s.projectDir)}`,
      "/api/providers/gateway/accounts",
      `/api/chats/${chat.id}`,
      "/api/projects",
    ]) {
      await api("GET", route);
    }
    f.s.runtime.db.pragma("wal_checkpoint(TRUNCATE)");
    const issued = f.gateway.issuedKeys[0]!;
    const files = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
    const haystacks = [
      ...bodies.map((b, i) => [`response ${i}`, b] as const),
      ...f.s.logLines.map((l, i) => [`log ${i}`, l] as const),
      ...files(f.s.projectDir).map((file) => [file, fs.readFileSync(file, "latin1")] as const),
      ...files(f.s.home)
        .filter((file) => !file.endsWith("secrets.json"))
        .map((file) => [file, fs.readFileSync(file, "latin1")] as const),
    ];
    for (const secret of [issued, pasted, pasted + "-model"]) {
      for (const [where, text] of haystacks) assert.ok(!text.includes(secret), `a key leaked into ${where}`);
    }
  });
});
