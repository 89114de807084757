// Optional password, sessions and passkey preconditions for the browser UI (contract 6.7). The
// passkey ceremony itself runs in real Chromium with a virtual authenticator (test/e2e).
import assert from "node:assert/strict";
import http from "node:http";
import { within } from "../helpers/poll";
import { startTestServer, type TestServer } from "../helpers/test-server";

const PASSWORD = "correct horse battery staple";

function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(url, { method: options.method ?? "GET", headers: options.headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

describe("access: password and sessions", function () {
  this.timeout(60_000);
  let s: TestServer;
  beforeEach(async () => (s = await startTestServer({ webviewDir: "media/webview" })));
  afterEach(() => s.stop());

  const json = { "content-type": "application/json" };
  const login = (password: string) =>
    fetch(`${s.url}/api/access/login`, { method: "POST", headers: json, body: JSON.stringify({ password }) });
  const cookieOf = (res: Response) => res.headers.get("set-cookie")!.split(";")[0]!;
  const as = (cookie: string) => ({ headers: { cookie } });

  it("changes nothing until a password is set; then the browser sees a sign-in page and the token still works", async () => {
    assert.deepEqual(await (await fetch(`${s.url}/api/access/status`)).json(), {
      passwordSet: false,
      passkeys: 0,
      authenticated: false,
    });
    assert.ok(!(await (await fetch(`${s.url}/`)).text()).includes("Sign in to Parley"), "the app, no sign-in page");
    assert.equal((await s.api("POST", "/api/access/password", { next: "too short" })).status, 400);
    assert.equal((await s.api("POST", "/api/access/password", { next: PASSWORD })).status, 204);
    assert.equal((await (await s.api("GET", "/api/access/status")).json()).passwordSet, true);
    const page = await (await fetch(`${s.url}/`)).text();
    assert.match(page, /<label for="password">Password<\/label>/);
    assert.match(page, /<button type="submit">Sign in<\/button>/);
    assert.equal((await s.api("GET", "/api/projects")).status, 200, "the per-start token still works");
    const link = await fetch(`${s.url}/?token=${s.token}`, { redirect: "manual" });
    assert.equal((await fetch(`${s.url}/api/projects`, as(cookieOf(link)))).status, 200, "and so does the token link");
  });

  it("signs in with the password into a session that can be listed, revoked and that ends with a new password", async () => {
    await s.api("POST", "/api/access/password", { next: PASSWORD });
    assert.equal((await login("wrong password!")).status, 401);
    const first = await login(PASSWORD);
    assert.equal(first.status, 204);
    const cookie = cookieOf(first);
    assert.match(first.headers.get("set-cookie")!, /HttpOnly/);
    assert.match(first.headers.get("set-cookie")!, /SameSite=Strict/);
    assert.match(first.headers.get("set-cookie")!, /Max-Age=604800/, "7 idle days by default");
    assert.equal((await fetch(`${s.url}/api/projects`, as(cookie))).status, 200);
    const sessions = await (await fetch(`${s.url}/api/access/sessions`, as(cookie))).json();
    assert.equal(sessions.filter((x: any) => x.current).length, 1);
    const second = cookieOf(await login(PASSWORD));
    // Revoke the other one from this one.
    assert.deepEqual(await (await fetch(`${s.url}/api/access/sessions`, { method: "DELETE", ...as(cookie) })).json(), {
      revoked: 1,
    });
    assert.equal((await fetch(`${s.url}/api/projects`, as(second))).status, 401, "a revoked session used again");
    // Changing the password needs the current one and ends every session.
    const change = (current: string) =>
      fetch(`${s.url}/api/access/password`, {
        method: "POST",
        headers: { ...json, cookie },
        body: JSON.stringify({ current, next: `${PASSWORD} 2` }),
      });
    assert.equal((await change("not it at all")).status, 403);
    const changed = await change(PASSWORD);
    assert.equal(changed.status, 204);
    assert.equal((await fetch(`${s.url}/api/projects`, as(cookie))).status, 401, "the old session ended");
    assert.equal(
      (await fetch(`${s.url}/api/projects`, as(cookieOf(changed)))).status,
      200,
      "the changer got a fresh one",
    );
    // Logout ends this one; clear needs the current password.
    const fresh = cookieOf(changed);
    const listed = await (await fetch(`${s.url}/api/access/sessions`, as(fresh))).json();
    assert.equal(
      (await fetch(`${s.url}/api/access/sessions/${listed[0].id}`, { method: "DELETE", ...as(fresh) })).status,
      204,
    );
    assert.equal((await fetch(`${s.url}/api/projects`, as(fresh))).status, 401);
    assert.equal((await s.api("DELETE", "/api/access/password", { current: "wrong wrong wrong" })).status, 403);
    assert.equal((await s.api("DELETE", "/api/access/password", { current: `${PASSWORD} 2` })).status, 204);
    assert.equal((await (await s.api("GET", "/api/access/status")).json()).passwordSet, false);
  });

  it("locks a client out after 5 failures in 10 minutes, survives a burst of 1,000, and logs no password", async () => {
    await s.api("POST", "/api/access/password", { next: PASSWORD });
    for (let i = 0; i < 5; i++) assert.equal((await login(`wrong ${i} wrong wrong`)).status, 401);
    const locked = await login(PASSWORD);
    assert.equal(locked.status, 429);
    assert.equal((await locked.json()).error.code, "rate_limited");
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => login(`burst ${i} guess!!`).then((r) => r.status)),
    );
    assert.ok(
      statuses.every((status) => status === 429),
      [...new Set(statuses)].join(","),
    );
    assert.equal((await fetch(`${s.url}/api/health`)).status, 200);
    const logs = s.logLines.join("\n");
    assert.ok(!logs.includes(PASSWORD) && !logs.includes("burst 1 guess"), "no password in the logs");
    assert.ok(!logs.includes("parley_session="), "no cookie in the logs");
  });

  it("refuses forged cookies, bad bodies, and passkeys on an IP address (offering localhost)", async () => {
    await s.api("POST", "/api/access/password", { next: PASSWORD });
    assert.equal((await fetch(`${s.url}/api/projects`, as("parley_session=forged-cookie-value"))).status, 401);
    assert.equal((await login({} as never)).status, 400);
    assert.equal((await fetch(`${s.url}/api/access/login`, { method: "POST", headers: json, body: "{}" })).status, 400);
    const onIp = await s.api("POST", "/api/access/passkeys/register/options", {});
    assert.equal(onIp.status, 400);
    assert.match((await onIp.json()).error.message, /http:\/\/localhost:\d+\//);
    const port = new URL(s.url).port;
    const onLocalhost = await raw(`${s.url}/api/access/passkeys/register/options`, {
      method: "POST",
      headers: { host: `localhost:${port}`, authorization: `Bearer ${s.token}` },
    });
    assert.equal(onLocalhost.status, 200);
    const options = JSON.parse(onLocalhost.body);
    assert.equal(options.rp.id, "localhost");
    assert.equal(options.authenticatorSelection.userVerification, "required");
    const garbage = await raw(`${s.url}/api/access/passkeys/register/verify`, {
      method: "POST",
      headers: { host: `localhost:${port}`, authorization: `Bearer ${s.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: "x",
        response: {
          id: "AAAA",
          rawId: "AAAA",
          type: "public-key",
          response: { clientDataJSON: "e30", attestationObject: "AA" },
        },
      }),
    });
    assert.equal(garbage.status, 400);
    // The challenge was used by that attempt: a replay of any response is refused as expired.
    const replay = await raw(`${s.url}/api/access/passkeys/register/verify`, {
      method: "POST",
      headers: { host: `localhost:${port}`, authorization: `Bearer ${s.token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "x", response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: {} } }),
    });
    assert.match(JSON.parse(replay.body).error.message, /expired or belongs to another session/);
    const noKeys = await raw(`${s.url}/api/access/login/passkey/options`, {
      method: "POST",
      headers: { host: `localhost:${port}` },
    });
    assert.equal(noKeys.status, 400);
    const noAttempt = await raw(`${s.url}/api/access/login/passkey/verify`, {
      method: "POST",
      headers: { host: `localhost:${port}`, "content-type": "application/json" },
      body: JSON.stringify({ response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: {} } }),
    });
    assert.equal(noAttempt.status, 400);
  });

  it("makes sessions expire after the configured idle time", async () => {
    await s.api("PATCH", "/api/settings/app", { access: { sessionIdleDays: 1 } });
    await s.api("POST", "/api/access/password", { next: PASSWORD });
    const res = await login(PASSWORD);
    assert.match(res.headers.get("set-cookie")!, /Max-Age=86400/);
    // An idle session past its expiry is gone.
    s.runtime.db.prepare("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z'").run();
    assert.equal((await fetch(`${s.url}/api/projects`, as(cookieOf(res)))).status, 401);
  });

  it("ends a revoked session's open event stream at once", async () => {
    await s.api("POST", "/api/access/password", { next: PASSWORD });
    const watcher = cookieOf(await login(PASSWORD));
    const admin = cookieOf(await login(PASSWORD));
    const stream = await fetch(`${s.url}/api/events`, as(watcher));
    assert.equal(stream.status, 200);
    const ended = stream.text().then(() => "ended");
    const listed = await (await fetch(`${s.url}/api/access/sessions`, as(admin))).json();
    const target = listed.find((x: any) => !x.current);
    assert.equal(
      (await fetch(`${s.url}/api/access/sessions/${target.id}`, { method: "DELETE", ...as(admin) })).status,
      204,
    );
    assert.equal(await within(ended, 3000, "still open"), "ended");
  });
});
