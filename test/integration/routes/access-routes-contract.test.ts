// The access routes of the UI's table (contract 6.7) against a real server: each answer in the shape
// its schema gives, so the Access page cannot drift from the server. The passkey ceremonies
// themselves run in Chromium with a virtual authenticator (test/e2e/access-ui.test.ts).
import assert from "node:assert/strict";
import http from "node:http";
import { apiRoutes, type ApiRouteKey } from "../../../src/shared/api-routes";
import { startTestServer, type TestServer } from "../../helpers/test-server";

const PASSWORD = "correct horse battery staple";

/** A request with a Host header of our choosing (fetch will not send one). */
function raw(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      url,
      { method, headers: body === undefined ? headers : { ...headers, "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe("UI route table: access", function () {
  this.timeout(30_000);
  let server: TestServer;
  let cookie = "";

  function conforms(key: ApiRouteKey, status: number, text: string): void {
    assert.ok(status < 300, `${key}: ${status} ${text}`);
    const parsed = apiRoutes[key].response.safeParse(status === 204 || !text ? undefined : JSON.parse(text));
    assert.ok(parsed.success, `${key} answered a shape its schema refuses: ${JSON.stringify(parsed.error?.issues)}`);
  }

  async function check(
    key: ApiRouteKey,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<string> {
    const method = key.slice(0, key.indexOf(" "));
    const sent = body === undefined ? {} : { body: JSON.stringify(body) };
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(cookie ? { cookie } : { authorization: `Bearer ${server.token}` }),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...sent,
    });
    const text = await response.text();
    conforms(key, response.status, text);
    const set = response.headers.get("set-cookie");
    if (set?.startsWith("parley_session=") && !set.startsWith("parley_session=;")) cookie = set.split(";")[0]!;
    return text;
  }

  before(async () => (server = await startTestServer()));
  after(() => server?.stop());

  it("answers the password, sign-in and session routes in the shapes the table gives", async () => {
    await check("GET /api/access/status", "/api/access/status");
    await check("POST /api/access/password", "/api/access/password", { next: PASSWORD });
    await check("POST /api/access/login", "/api/access/login", { password: PASSWORD });
    assert.ok(cookie, "signed in");
    const other = cookie;
    cookie = "";
    await check("POST /api/access/login", "/api/access/login", { password: PASSWORD });
    const sessions = JSON.parse(await check("GET /api/access/sessions", "/api/access/sessions"));
    assert.equal(sessions.length, 2);
    const mine = sessions.find((s: { current: boolean }) => s.current);
    await check(
      "DELETE /api/access/sessions/:id",
      `/api/access/sessions/${sessions.find((s: { id: string }) => s.id !== mine.id).id}`,
    );
    assert.equal(
      (await fetch(`${server.url}/api/projects`, { headers: { cookie: other } })).status,
      401,
      "the revoked session is gone",
    );
    await check("DELETE /api/access/sessions", "/api/access/sessions");
    await check("POST /api/access/password", "/api/access/password", { current: PASSWORD, next: `${PASSWORD}!` });
    await check("DELETE /api/access/password", "/api/access/password", { current: `${PASSWORD}!` });
    await check("POST /api/access/logout", "/api/access/logout", {});
  });

  it("answers the passkey routes in the shapes the table gives (the ceremony's options on localhost)", async () => {
    cookie = "";
    await check("GET /api/access/passkeys", "/api/access/passkeys");
    const port = new URL(server.url).port;
    const options = await raw(
      `${server.url}/api/access/passkeys/register/options`,
      "POST",
      { host: `localhost:${port}`, authorization: `Bearer ${server.token}` },
      {},
    );
    conforms("POST /api/access/passkeys/register/options", options.status, options.body);
    assert.equal(JSON.parse(options.body).authenticatorSelection.userVerification, "required");
    const onIp = await raw(
      `${server.url}/api/access/passkeys/register/options`,
      "POST",
      { authorization: `Bearer ${server.token}` },
      {},
    );
    assert.equal(onIp.status, 400);
    assert.match(
      JSON.parse(onIp.body).error.message,
      new RegExp(`http://localhost:${port}/`),
      "the page on an IP address is told where passkeys work",
    );
  });
});
