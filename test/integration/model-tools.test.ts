// Tools go only to models that can use them. A model that refuses them (Ollama's "does not support
// tools", vLLM's '"auto" tool choice requires --enable-auto-tool-choice') gets the turn sent again
// without them, the chat says so once, and the model's `models` entry remembers `tools: false`. A
// catalog's `supported_parameters` without "tools" offers none from the start.
import assert from "node:assert/strict";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm";
import { until } from "../helpers/poll";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { okStream, startScriptedUpstream, type ScriptedUpstream } from "../helpers/scripted-upstream";

type Server = { s: TestServer; projectId: string };

async function parleyFor(baseUrl: string, apiKey: string): Promise<Server> {
  const s = await startTestServer({ gatewayBaseUrl: baseUrl });
  await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey }] });
  const projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  return { s, projectId };
}

async function say({ s, projectId }: Server, modelId: string, content = "hi"): Promise<ReceivedEvent[]> {
  const chat = await (await s.api("POST", `/api/projects/${projectId}/chats`, { modelId })).json();
  const res = await s.api("POST", `/api/chats/${chat.id}/messages/stream`, { content });
  assert.equal(res.status, 200);
  return readEvents(res);
}

const modelEntry = async (s: TestServer, id: string) =>
  ((await (await s.api("GET", "/api/settings/app")).json()).models ?? []).find((m: { id: string }) => m.id === id);

describe("tools only for models that can use them: @dwmkerr/mock-llm as Ollama and vLLM", function () {
  this.timeout(30_000);
  let mock: MockLlm;
  let p: Server;

  before(async () => (mock = await startMockLlm()));
  after(() => mock?.stop());
  // Ollama's usual key is `ollama`: its own messages name registry.ollama.ai, which must stay readable.
  beforeEach(async () => (p = await parleyFor(mock.baseUrl, "ollama")));
  afterEach(() => p.s.stop());

  const completions = () => mock.requests.filter((r) => r === "POST /v1/chat/completions").length;

  for (const { model, said } of [
    { model: "gemma-2b", said: "registry.ollama.ai/library/gemma:2b does not support tools" },
    {
      model: "vllm-plain",
      said: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    },
  ]) {
    it(`says so once, answers without tools, and remembers it for ${model}`, async () => {
      const before = completions();
      const events = await say(p, model);
      const notices = events.filter((e) => e.event === "notice");
      assert.equal(notices.length, 1, JSON.stringify(events));
      assert.equal(notices[0]!.data.code, "tools_unsupported");
      assert.ok(notices[0]!.data.message.includes(said), notices[0]!.data.message);
      assert.doesNotMatch(notices[0]!.data.message, /\[redacted\]/);
      assert.equal(text(events), "You said: hi");
      assert.equal(
        events.some((e) => e.event === "error"),
        false,
        "no error: the turn was answered",
      );
      assert.equal(events.at(-1)!.data.finishReason, "stop");
      await until(
        () => completions(),
        (n) => n === before + 2,
        "the refused request and the one without tools",
        2_000,
      );
      await until(
        () => modelEntry(p.s, model),
        (entry) => entry?.tools === false,
        "tools:false remembered in the app settings",
        2_000,
      );
      // The stored answer keeps the notice, for a reload.
      const chats = await (await p.s.api("GET", `/api/projects/${p.projectId}/chats`)).json();
      const stored = (await (await p.s.api("GET", `/api/chats/${chats[0].id}`)).json()).messages[1];
      assert.ok(stored.meta.notice.includes(said));

      const again = await say(p, model, "and again");
      assert.equal(text(again), "You said: and again");
      assert.equal(
        again.some((e) => e.event === "notice" || e.event === "error"),
        false,
      );
      await until(
        () => completions(),
        (n) => n === before + 3,
        "one request, without tools",
        2_000,
      );
    });
  }

  it("offers tools again once the user clears tools:false (and learns it again if refused)", async () => {
    await p.s.api("PATCH", "/api/settings/app", { models: [{ id: "gemma-2b", tools: false }] });
    assert.equal(
      (await say(p, "gemma-2b")).some((e) => e.event === "notice"),
      false,
    );
    await p.s.api("PATCH", "/api/settings/app", { models: [{ id: "gemma-2b", tools: null }] });
    assert.equal((await say(p, "gemma-2b")).filter((e) => e.event === "notice").length, 1);
  });

  it("keeps offering tools to a model that takes them", async () => {
    const events = await say(p, "qwen2.5-0.5b-instruct");
    assert.equal(text(events), "You said: hi");
    assert.equal(
      events.some((e) => e.event === "notice"),
      false,
    );
    assert.equal(await modelEntry(p.s, "qwen2.5-0.5b-instruct"), undefined);
  });
});

describe("tools only for models that can use them: a catalog with supported_parameters", function () {
  this.timeout(20_000);
  let upstream: ScriptedUpstream;
  let p: Server;

  before(async () => {
    upstream = await startScriptedUpstream();
    upstream.models = [
      { id: "vendor/with-tools", supported_parameters: ["tools", "tool_choice", "temperature"] },
      { id: "vendor/no-tools", supported_parameters: ["temperature", "max_tokens"] },
      { id: "vendor/unsaid" },
    ];
  });
  after(() => upstream?.stop());
  beforeEach(async () => {
    p = await parleyFor(upstream.baseUrl, "sk-catalog-test-key-0123");
    upstream.chat = () => okStream();
    upstream.requests.length = 0;
  });
  afterEach(() => p.s.stop());

  const sentTools = () =>
    upstream.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => Array.isArray(r.body.tools));

  it("lists the supported parameters, and offers no tools where they lack `tools`", async () => {
    const models = await (await p.s.api("GET", "/api/providers/gateway/models")).json();
    assert.deepEqual(
      models.map((m: { id: string; supportedParameters?: string[] }) => [m.id, m.supportedParameters]),
      [
        ["vendor/with-tools", ["tools", "tool_choice", "temperature"]],
        ["vendor/no-tools", ["temperature", "max_tokens"]],
        ["vendor/unsaid", undefined],
      ],
    );
    const offered: unknown[] = [];
    for (const model of ["vendor/with-tools", "vendor/no-tools", "vendor/unsaid"]) {
      const events = await say(p, model);
      assert.equal(text(events), "ok");
      offered.push((events[0]!.data.context.tools as string[]).length > 0);
    }
    assert.deepEqual(sentTools(), [true, false, true]);
    assert.deepEqual(offered, [true, false, true], "the turn's receipt says what was sent");
  });

  it("lets the model's entry decide over the catalog, either way", async () => {
    await p.s.api("GET", "/api/providers/gateway/models");
    await p.s.api("PATCH", "/api/settings/app", {
      models: [
        { id: "vendor/no-tools", tools: true },
        { id: "vendor/with-tools", tools: false },
      ],
    });
    await say(p, "vendor/no-tools");
    await say(p, "vendor/with-tools");
    assert.deepEqual(sentTools(), [true, false]);
  });

  it("retries without tools after an HTTP 400 that says the model does not support them", async () => {
    upstream.chat = (request) =>
      Array.isArray(request.body.tools)
        ? {
            status: 400,
            body: JSON.stringify({ error: { message: "registry.ollama.ai/library/phi:2 does not support tools" } }),
          }
        : okStream("without tools");
    const events = await say(p, "vendor/unsaid");
    assert.equal(text(events), "without tools");
    assert.equal(events.filter((e) => e.event === "notice").length, 1);
    assert.deepEqual(sentTools(), [true, false]);
  });

  it("does not retry a 400 about something else", async () => {
    upstream.chat = () => ({ status: 400, body: JSON.stringify({ error: { message: "temperature is too high" } }) });
    const events = await say(p, "vendor/unsaid");
    assert.equal(events.find((e) => e.event === "error")!.data.message, "temperature is too high");
    assert.equal(
      events.some((e) => e.event === "notice"),
      false,
    );
    assert.deepEqual(sentTools(), [true]);
  });
});
