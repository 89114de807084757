import assert from "node:assert/strict";
import http from "node:http";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** A raw request, so Host and Origin can be set freely (fetch forbids both). */
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

describe("access control", () => {
  let s: TestServer;
  beforeEach(async () => (s = await startTestServer()));
  afterEach(() => s.stop());

  it("answers 401 without credentials and with a wrong token, but serves health", async () => {
    assert.equal((await fetch(`${s.url}/api/projects`)).status, 401);
    const wrong = await s.api("GET", "/api/projects", undefined, { authorization: "Bearer nope" });
    assert.equal(wrong.status, 401);
    assert.equal((await wrong.json()).error.code, "unauthorized");
    assert.deepEqual(await (await fetch(`${s.url}/api/health`)).json(), { ok: true, version: "test" });
  });

  it("trades the token link for an HttpOnly SameSite=Strict session cookie", async () => {
    const login = await fetch(`${s.url}/?token=${s.token}`, { redirect: "manual" });
    assert.equal(login.status, 302);
    assert.equal(login.headers.get("location"), "./");
    const cookie = login.headers.get("set-cookie")!;
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.ok(!cookie.includes(s.token), "the cookie is not the token");
    const session = cookie.split(";")[0]!;
    assert.equal((await fetch(`${s.url}/api/projects`, { headers: { cookie: session } })).status, 200);
    assert.equal((await fetch(`${s.url}/api/projects`, { headers: { cookie: "parley_session=forged" } })).status, 401);
  });

  it("refuses a wrong token link", async () => {
    const res = await fetch(`${s.url}/?token=wrong`, { redirect: "manual" });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get("set-cookie"), null);
  });

  it("answers 403 to a foreign Host until the user allows it", async () => {
    const headers = { host: "evil.example:80", authorization: `Bearer ${s.token}` };
    const refused = await raw(`${s.url}/api/health`, { headers });
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body).error.code, "forbidden");
    await s.api("PATCH", "/api/settings/app", { allowedHosts: ["evil.example"] });
    assert.equal((await raw(`${s.url}/api/health`, { headers })).status, 200);
  });

  it("answers 403 to a state change from a foreign Origin, and accepts its own and a webview's", async () => {
    const port = new URL(s.url).port;
    const send = (origin: string) =>
      raw(`${s.url}/api/settings/app`, {
        method: "PATCH",
        headers: {
          host: `127.0.0.1:${port}`,
          origin,
          authorization: `Bearer ${s.token}`,
          "content-type": "application/json",
        },
        body: '{"tags":["x"]}',
      });
    assert.equal((await send("https://evil.example")).status, 403);
    assert.equal((await send("null")).status, 403);
    assert.equal((await send(`http://127.0.0.1:${port}`)).status, 200);
    const webview = await send("vscode-webview://1a2b3c");
    assert.equal(webview.status, 200);
    assert.equal(webview.headers["access-control-allow-origin"], "vscode-webview://1a2b3c");
  });

  it("answers a webview's CORS preflight without credentials", async () => {
    const res = await raw(`${s.url}/api/settings/app`, {
      method: "OPTIONS",
      headers: { origin: "vscode-webview://abc", "access-control-request-method": "PATCH" },
    });
    assert.equal(res.status, 204);
    assert.match(String(res.headers["access-control-allow-headers"]), /Authorization/);
  });

  it("answers unknown API routes with a JSON 404", async () => {
    const res = await s.api("GET", "/api/nothing-here");
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.code, "not_found");
  });

  it("serves a root page that says what Parley is", async () => {
    const page = await (await fetch(`${s.url}/`)).text();
    assert.match(page, /Parley/);
    assert.match(page, /chat/i);
  });
});
