// Parley against a real OpenAI-compatible server written by others (@dwmkerr/mock-llm from npm,
// its own process on loopback), set up as a new user would: base URL, a key, a chat.
import assert from "node:assert/strict";
import { FakeGateway } from "../fake-gateway/server";
import { startMockLlm, type MockLlm } from "../helpers/mock-llm";
import { until } from "../helpers/poll";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { startTestServer, type TestServer } from "../helpers/test-server";

const MODEL = "qwen2.5-0.5b-instruct";

describe("a real self-hosted server: @dwmkerr/mock-llm", function () {
  this.timeout(30_000);
  let mock: MockLlm;
  let s: TestServer;
  let projectId: string;

  before(async () => (mock = await startMockLlm()));
  after(() => mock?.stop());
  beforeEach(async () => {
    s = await startTestServer({ gatewayBaseUrl: mock.baseUrl });
    assert.equal(
      (await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-local-test-key" }] }))
        .status,
      200,
    );
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  afterEach(() => s.stop());

  const newChat = async (modelId = MODEL): Promise<string> => {
    const res = await s.api("POST", `/api/projects/${projectId}/chats`, { modelId });
    assert.equal(res.status, 201);
    return (await res.json()).id;
  };
  const say = async (chatId: string, content: string): Promise<ReceivedEvent[]> => {
    const res = await s.api("POST", `/api/chats/${chatId}/messages/stream`, { content });
    assert.equal(res.status, 200);
    return readEvents(res);
  };
  const errorOf = (events: ReceivedEvent[]) => events.find((e) => e.event === "error")?.data;
  const chatCompletions = () => mock.requests.filter((r) => r === "POST /v1/chat/completions").length;
  const waitFor = (what: string, check: () => boolean) => until(check, (ok) => ok, what, 2_000);
  /**
   * Waits until the server has logged a request of the test's own, sent now: every request Parley
   * sent before it has been logged by then (the server logs them in the order it gets them).
   */
  const loggedUpToNow = async () => {
    const marker = `/parley-test-marker-${mock.requests.length}`;
    await (await fetch(`${mock.url}${marker}`)).arrayBuffer();
    await waitFor("the server logged the marker", () => mock.requests.includes(`GET ${marker}`));
  };

  it("lists its models by id without inventing names or prices", async () => {
    const models = await (await s.api("GET", "/api/providers/gateway/models")).json();
    assert.deepEqual(models, [
      { id: MODEL, label: MODEL, contextLength: null, pricing: {}, inputModalities: [], outputModalities: [] },
      {
        id: "whisper-tiny",
        label: "whisper-tiny",
        contextLength: null,
        pricing: {},
        inputModalities: [],
        outputModalities: [],
      },
    ]);
  });

  it("streams a chat, asks for usage, estimates tokens it did not get, and keeps the cost unknown", async () => {
    const chatId = await newChat();
    const events = await say(chatId, "hello there");
    assert.equal(text(events), "You said: hello there");
    assert.equal(events.at(-1)!.data.finishReason, "stop");
    const usage = events.find((e) => e.event === "usage")!.data;
    assert.equal(usage.costSource, "estimate");
    assert.equal(usage.cost, null);
    assert.ok(usage.completionTokens > 0 && usage.promptTokens > 0);
    const chat = await (await s.api("GET", `/api/chats/${chatId}`)).json();
    assert.equal(chat.messages[1].status, "complete");
    assert.equal(chat.usage.cost, null);
    assert.equal(chat.usage.unknownCostTurns, 1);
    // The server answers this only when the request carries stream_options.include_usage: true.
    assert.equal(text(await say(chatId, "usage please")), "usage was asked for");
  });

  it("turns the price a user set into an estimated cost", async () => {
    await s.api("PATCH", "/api/settings/app", {
      models: [{ id: MODEL, pricing: { prompt: 0.0000001, completion: 0.0000004 } }],
    });
    const usage = (await say(await newChat(), "hi")).find((e) => e.event === "usage")!.data;
    assert.equal(usage.costSource, "estimate");
    assert.ok(Math.abs(usage.cost - (usage.promptTokens * 0.0000001 + usage.completionTokens * 0.0000004)) < 1e-15);
  });

  it("shows the server's words for an unknown model, once, not retryable", async () => {
    const before = chatCompletions();
    const error = errorOf(await say(await newChat("no-such-model"), "hi"));
    assert.deepEqual(error, {
      code: "upstream_error",
      message: "The model `no-such-model` does not exist.",
      status: 404,
      retryable: false,
    });
    await waitFor("the request was logged", () => chatCompletions() > before);
    assert.equal(chatCompletions(), before + 1);
  });

  it("shows the server's words for a server-side failure, retryable", async () => {
    const error = errorOf(await say(await newChat(), "gpu-oom now"));
    assert.deepEqual(error, {
      code: "upstream_error",
      message: "CUDA out of memory. Tried to allocate 2.00 GiB",
      status: 500,
      retryable: true,
    });
  });

  it("shows an error streamed as {detail} in the server's words, not as a dropped stream", async () => {
    const error = errorOf(await say(await newChat(), "detail-error please"));
    assert.equal(
      error.message,
      "Invalid model name passed in model=qwen. Call `/v1/models` to view available models for your key.",
    );
    assert.equal(
      errorOf(await say(await newChat(), "validation-error please")).message,
      "body.messages.0.content: Field required",
    );
  });

  it("shows a wrong key's refusal without the key, in chat and in the model list", async () => {
    await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-wrong-key" }] });
    const events = await say(await newChat(), "hi");
    assert.deepEqual(errorOf(events), {
      code: "upstream_error",
      message: "Incorrect API key provided: [redacted].",
      status: 401,
      retryable: false,
    });
    const res = await s.api("GET", "/api/providers/gateway/models");
    assert.equal(res.status, 502);
    const body = await res.text();
    assert.doesNotMatch(body, /sk-wrong-key/);
    assert.deepEqual(JSON.parse(body).error, {
      code: "upstream_error",
      message: "Incorrect API key provided: [redacted].",
      status: 401,
    });
  });

  it("answers credits with {supported:false}: the server has no /credits or /key", async () => {
    const res = await s.api("GET", "/api/providers/gateway/credits");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { supported: false });
  });

  it("says where /v1 is missing when the base URL lacks it", async () => {
    await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", baseUrl: mock.url }] });
    const res = await s.api("GET", "/api/providers/gateway/models");
    assert.equal(res.status, 502);
    const { error } = await res.json();
    assert.equal(error.status, 404);
    assert.equal(
      error.message,
      `the server answered 404 for /models; did you mean ${mock.url}/v1? (the server said: Cannot GET /models)`,
    );
  });

  it("accepts a model id its list does not show, and does not refetch the list every turn", async () => {
    const listed = () => mock.requests.filter((r) => r === "GET /v1/models").length;
    const before = listed();
    const chatId = await newChat("qwen2.5-0.5b-instruct@main");
    for (const word of ["one", "two", "three"]) assert.equal(text(await say(chatId, word)), `You said: ${word}`);
    await waitFor("the list was loaded once in the background", () => listed() === before + 1);
    await loggedUpToNow();
    assert.equal(listed(), before + 1);
  });

  it("offers no transcription model until the user marks one, and never sends a chat model to /audio/transcriptions", async () => {
    assert.deepEqual(await (await s.api("GET", "/api/providers/gateway/models?slice=transcription")).json(), []);
    const upload = (modelId: string) => {
      const form = new FormData();
      form.set("modelId", modelId);
      form.set("audio", new Blob([new Uint8Array(800)], { type: "audio/wav" }), "clip.wav");
      return fetch(`${s.url}/api/dictation/transcribe`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.token}` },
        body: form,
      });
    };
    const refused = await upload(MODEL);
    assert.equal(refused.status, 400);
    assert.match((await refused.json()).error.message, /mark it as one under Settings, Providers/);
    assert.equal(mock.requests.includes("POST /v1/audio/transcriptions"), false);

    await s.api("PATCH", "/api/settings/app", { models: [{ id: "whisper-tiny", kind: "transcription" }] });
    const slice = await (await s.api("GET", "/api/providers/gateway/models?slice=transcription")).json();
    assert.deepEqual(
      slice.map((m: { id: string }) => m.id),
      ["whisper-tiny"],
    );
    const heard = await (await upload("whisper-tiny")).json();
    assert.deepEqual([heard.text, heard.model, heard.route], ["hello from mock-llm", "whisper-tiny", "transcriptions"]);
    // It reports no usage and the user set no price: the cost is unknown, not 0.
    assert.equal(heard.usage.cost, null);
    assert.deepEqual(
      (await (await s.api("GET", "/api/usage?groupBy=model")).json()).map((r: { key: string; cost: number | null }) => [
        r.key,
        r.cost,
      ]),
      [["whisper-tiny", null]],
    );
  });

  it("reloads the model list at once when the base URL changes to it", async () => {
    const gateway = await new FakeGateway().start();
    const t = await startTestServer({ gatewayBaseUrl: gateway.baseUrl });
    try {
      const first = await (await t.api("GET", "/api/providers/gateway/models")).json();
      assert.ok(first.some((m: { id: string }) => m.id === "fake/echo"));
      const before = mock.requests.filter((r) => r === "GET /v1/models").length;
      assert.equal(
        (await t.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", baseUrl: mock.baseUrl }] })).status,
        200,
      );
      await waitFor(
        "the new server's list was fetched without anyone asking",
        () => mock.requests.filter((r) => r === "GET /v1/models").length > before,
      );
      const now = await (await t.api("GET", "/api/providers/gateway/models")).json();
      assert.deepEqual(
        now.map((m: { id: string }) => m.id),
        [MODEL, "whisper-tiny"],
      );
    } finally {
      await t.stop();
      await gateway.stop();
    }
  });
});
