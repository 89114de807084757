// A repository's `.app.json` cannot send the user's key (or a credential header) to a server the user
// did not choose: credentials are bound to the origin they were saved for (contract, section 5).
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { newChat, send, startChatFixture, TEST_KEY, type ChatFixture } from "../helpers/chat-fixture";
import { startTestServer } from "../helpers/test-server";
import { readEvents, text } from "../helpers/sse";
import { FakeGateway } from "../fake-gateway/server";
import { makeTempDir } from "../helpers/temp";

/** A listener standing in for an attacker's server: it records every request it gets. */
async function startListener(): Promise<{ url: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function writeAppJson(f: ChatFixture, value: unknown): void {
  fs.writeFileSync(path.join(f.s.projectDir, ".app.json"), JSON.stringify(value));
}

describe("credentials bound to their origin", () => {
  let f: ChatFixture;
  let evil: Awaited<ReturnType<typeof startListener>>;
  beforeEach(async () => {
    f = await startChatFixture();
    evil = await startListener();
  });
  afterEach(async () => {
    await f.stop();
    await evil.close();
  });

  async function expectRefused(chatId: string, code: string): Promise<{ message: string; issues?: any[] }> {
    const res = await send(f, chatId, { content: "hi" });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error.code, code, JSON.stringify(body));
    assert.equal(evil.seen.length, 0, "the other server got no request");
    return body.error;
  }

  it("refuses to send the app key to a base URL a project sets, naming both origins", async () => {
    writeAppJson(f, { providers: [{ id: "gateway", baseUrl: evil.url }] });
    const chat = await newChat(f, { modelId: "fake/echo" });
    const error = await expectRefused(chat.id, "credential_origin_mismatch");
    const gatewayOrigin = new URL(f.gateway.baseUrl).origin;
    const evilOrigin = new URL(evil.url).origin;
    assert.ok(error.message.includes(gatewayOrigin) && error.message.includes(evilOrigin), error.message);
    assert.deepEqual(error.issues, [
      { providerId: "gateway", requestOrigin: evilOrigin, savedOrigins: [gatewayOrigin] },
    ]);
    assert.ok(!JSON.stringify(error).includes(TEST_KEY));
  });

  it("refuses through a model's provider, a project provider, and the OAuth account", async () => {
    // models[].provider naming a provider the project redefines.
    writeAppJson(f, {
      providers: [{ id: "gateway", baseUrl: evil.url }],
      models: [{ id: "fake/echo", provider: "gateway" }],
    });
    await expectRefused((await newChat(f, { modelId: "fake/echo" })).id, "credential_origin_mismatch");
    // A provider of the project's own has no key at all.
    writeAppJson(f, {
      providers: [{ id: "mine", baseUrl: evil.url }],
      models: [{ id: "fake/echo", provider: "mine" }],
    });
    await expectRefused((await newChat(f, { modelId: "fake/echo" })).id, "invalid_request");
    // authMode oauth with the active sign-in: bound to the gateway that issued it.
    await f.s.runtime.accounts.add("sk-signed-in-key-0123456789", new URL(f.gateway.baseUrl).origin);
    writeAppJson(f, { providers: [{ id: "gateway", baseUrl: evil.url, authMode: "oauth" }] });
    await expectRefused((await newChat(f, { modelId: "fake/echo" })).id, "credential_origin_mismatch");
  });

  it("keeps a model-level key and credential headers at their origin too", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      providers: [{ id: "gateway", headers: { "X-Org-Token": "org-secret-123" } }],
      models: [{ id: "fake/echo", apiKey: "sk-model-key-0123456789" }],
    });
    // Kept as a secret: the placeholder in the layer and in responses, the value in the secret store only.
    const app = await (await f.s.api("GET", "/api/settings/app")).json();
    assert.deepEqual(app.providers[0].headers, { "X-Org-Token": "<secret>" });
    assert.ok(!JSON.stringify(f.s.runtime.appStore.read()).includes("org-secret-123"));
    // At home, both reach the gateway.
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "hi" }));
    const last = f.gateway.completions.at(-1)!;
    assert.equal(last.headers.authorization, "Bearer sk-model-key-0123456789");
    assert.equal(last.headers["x-org-token"], "org-secret-123");
    writeAppJson(f, { providers: [{ id: "gateway", baseUrl: evil.url }] });
    await expectRefused(chat.id, "credential_origin_mismatch");
  });

  it("uses a key saved for the project's own origin, and only there", async () => {
    const other = await new FakeGateway().start();
    try {
      writeAppJson(f, { providers: [{ id: "gateway", baseUrl: other.baseUrl }] });
      const q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
      const chat = await newChat(f, { modelId: "fake/echo" });
      assert.equal((await send(f, chat.id, { content: "hi" })).status, 400);
      const saved = await f.s.api("PATCH", `/api/settings/project?${q}`, {
        providers: [{ id: "gateway", apiKey: "sk-for-the-other-one-01234" }],
      });
      assert.equal(saved.status, 200);
      assert.equal((await saved.json()).project.providers[0].hasApiKey, true);
      assert.ok(!fs.readFileSync(path.join(f.s.projectDir, ".app.json"), "utf8").includes("sk-for-the-other"));
      const events = await readEvents(await send(f, chat.id, { content: "hello there" }));
      assert.match(text(events), /hello there/);
      assert.equal(other.completions.at(-1)!.headers.authorization, "Bearer sk-for-the-other-one-01234");
      // The app's own key still goes to the app's gateway only.
      assert.ok(!other.requests.some((r) => r.headers.authorization === `Bearer ${TEST_KEY}`));
    } finally {
      await other.stop();
    }
  });

  it("refuses a key it could not bind (no base URL), and forgets a key for every origin on null", async () => {
    const refused = await f.s.api("PATCH", "/api/settings/app", {
      models: [{ id: "m/x", provider: "nowhere", apiKey: "sk-unbindable-0123456789" }],
    });
    assert.equal(refused.status, 400);
    assert.match((await refused.json()).error.message, /baseUrl/);
    assert.deepEqual(f.s.runtime.appStore.read().models ?? [], [], "nothing was half-written");
    assert.ok(!(await f.s.runtime.secrets.list("apiKey/models/m/x")).length);
    // The same slot saved for two origins: null removes both.
    const q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
    writeAppJson(f, { providers: [{ id: "gateway", baseUrl: evil.url }] });
    await f.s.api("PATCH", `/api/settings/project?${q}`, {
      providers: [{ id: "gateway", apiKey: "sk-second-origin-0123456789" }],
    });
    assert.equal((await f.s.runtime.secrets.list("apiKey/providers/gateway@")).length, 2);
    await f.s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: null }] });
    assert.deepEqual(await f.s.runtime.secrets.list("apiKey/providers/gateway@"), []);
  });

  it("shows hasApiKey in the PATCH answer and GET of the app layer after pasting a key", async () => {
    const res = await f.s.api("PATCH", "/api/settings/app", {
      providers: [{ id: "gateway", apiKey: "sk-pasted-0123456789" }],
    });
    const body = await res.json();
    assert.deepEqual(body.providers, [{ id: "gateway", hasApiKey: true }]);
    assert.deepEqual((await (await f.s.api("GET", "/api/settings/app")).json()).providers, [
      { id: "gateway", hasApiKey: true },
    ]);
  });
});

describe("credentials saved before binding", () => {
  it("are bound on upgrade to the origin in force: the default gateway, or the app's baseUrl", async () => {
    const gateway = await new FakeGateway().start();
    const home = path.join(makeTempDir(), "home");
    await (await startTestServer({ home, gatewayBaseUrl: gateway.baseUrl })).stop();
    // What an older Parley left: unbound names, and a sign-in without an origin.
    fs.writeFileSync(
      path.join(home, "secrets.json"),
      JSON.stringify({
        "apiKey/providers/gateway": TEST_KEY,
        "apiKey/models/vendor/m": "sk-model-legacy-0123456789",
        "oauth/gateway/a_old": JSON.stringify({
          accessToken: "sk-oauth-legacy-0123456789",
          refreshToken: null,
          expiresAt: null,
          label: "sk-oauth-legacy-",
          createdAt: "2026-01-01T00:00:00.000Z",
        }),
      }),
      { mode: 0o600 },
    );
    const s = await startTestServer({ home, gatewayBaseUrl: gateway.baseUrl });
    try {
      const origin = new URL(gateway.baseUrl).origin;
      assert.deepEqual((await s.runtime.secrets.list("apiKey/")).sort(), [
        `apiKey/models/vendor/m@${origin}`,
        `apiKey/providers/gateway@${origin}`,
      ]);
      assert.equal(JSON.parse((await s.runtime.secrets.get("oauth/gateway/a_old"))!).origin, origin);
      const project = await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json();
      const chat = await (await s.api("POST", `/api/projects/${project.id}/chats`, { modelId: "fake/echo" })).json();
      const res = await fetch(`${s.url}/api/chats/${chat.id}/messages/stream`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
        body: JSON.stringify({ content: "still works" }),
      });
      assert.match(text(await readEvents(res)), /still works/);
    } finally {
      await s.stop();
      await gateway.stop();
    }
  });
});
