// A self-hosted server that checks no key (Ollama, `transformers serve`, a vLLM without --api-key),
// played by @dwmkerr/mock-llm from npm: with only its base URL set under Settings, Providers, chats go
// out with no Authorization header at all. The hosted gateway, and a base URL that only a project's
// `.app.json` names, still need a key.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm";
import { readEvents, text } from "../helpers/sse";
import { startTestServer, type TestServer } from "../helpers/test-server";

const MODEL = "qwen2.5-0.5b-instruct";

describe("a keyless self-hosted server (@dwmkerr/mock-llm)", function () {
  this.timeout(30_000);
  let mock: MockLlm;
  let s: TestServer;
  let projectId: string;

  before(async () => (mock = await startMockLlm()));
  after(() => mock?.stop());
  // The built-in base URL: the hosted gateway. The user points Parley at the server in the app settings.
  beforeEach(async () => {
    s = await startTestServer();
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  afterEach(() => s.stop());

  const chatCompletions = () => mock.requests.filter((r) => r === "POST /v1/chat/completions").length;
  const send = async (content: string, modelId = MODEL) => {
    const chat = await (await s.api("POST", `/api/projects/${projectId}/chats`, { modelId })).json();
    return s.api("POST", `/api/chats/${chat.id}/messages/stream`, { content });
  };

  it("lists models and chats with only the base URL set, sending no Authorization header", async () => {
    assert.equal(
      (await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", baseUrl: mock.baseUrl }] })).status,
      200,
    );
    const models = await s.api("GET", "/api/providers/gateway/models");
    assert.equal(models.status, 200);
    const res = await send("key check");
    assert.equal(res.status, 200, await res.clone().text());
    const events = await readEvents(res);
    assert.equal(text(events), "no Authorization header came");
    assert.equal(events.at(-1)!.data.finishReason, "stop");
    // Credits: the server keeps none, which is no error either.
    assert.deepEqual(await (await s.api("GET", "/api/providers/gateway/credits")).json(), { supported: false });
  });

  it("goes keyless for a provider of the user's own too, and sends a key once one is saved", async () => {
    await s.api("PATCH", "/api/settings/app", {
      providers: [{ id: "local", baseUrl: mock.baseUrl }],
      models: [{ id: MODEL, provider: "local" }],
    });
    assert.equal(text(await readEvents(await send("key check"))), "no Authorization header came");
    await s.api("PATCH", "/api/settings/app", { providers: [{ id: "local", apiKey: "sk-local-server-key" }] });
    assert.equal(text(await readEvents(await send("key check"))), "a key came");
  });

  it("uses a key saved for the hosted gateway nowhere else, and goes keyless to the user's server", async () => {
    await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-hosted-key-0123456789" }] });
    await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", baseUrl: mock.baseUrl }] });
    assert.equal(text(await readEvents(await send("key check"))), "no Authorization header came");
  });

  it("still needs a key for the hosted gateway, also when the user names its URL", async () => {
    const res = await send("hi");
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /no key for provider "gateway"/);
    await s.api("PATCH", "/api/settings/app", {
      providers: [{ id: "gateway", baseUrl: "https://openrouter.ai/api/v1" }],
    });
    assert.equal((await send("hi")).status, 400);
  });

  it("sends nothing keyless to a base URL that only a project's .app.json names", async () => {
    fs.writeFileSync(
      path.join(s.projectDir, ".app.json"),
      JSON.stringify({ providers: [{ id: "gateway", baseUrl: mock.baseUrl }] }),
    );
    const before = chatCompletions();
    const res = await send("key check");
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /no key for provider "gateway"/);
    assert.equal(chatCompletions(), before, "the project's server got no chat");
  });
});
