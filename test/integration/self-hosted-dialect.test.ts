// The gaps of self-hosted and proxy gateways (API contract, section 5, last paragraph), played by
// the fake gateway's dialect options over real HTTP: string errors, no [DONE], no usage unless
// asked, no cost, bare model lists, no credits, and every error body shape.
import assert from "node:assert/strict";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { names, readEvents, text } from "../helpers/sse";

const chatOf = async (f: ChatFixture, id: string) => (await f.s.api("GET", `/api/chats/${id}`)).json();
const errorOf = (events: Awaited<ReturnType<typeof readEvents>>) => events.find((e) => e.event === "error")?.data;

describe("self-hosted gateway dialect: errors", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("shows a string error chunk that ends the stream without [DONE], keeping the partial answer", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({
      kind: "reply",
      pieces: ["a", "b", "c"],
      errorAfter: 2,
      errorShape: "string",
      errorMessage: "CUDA out of memory",
      errorWithoutDone: true,
    });
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.deepEqual(names(events), ["turn.start", "text.delta", "text.delta", "error", "usage", "turn.end"]);
    assert.deepEqual(errorOf(events), { code: "upstream_error", message: "CUDA out of memory", retryable: true });
    const stored = (await chatOf(f, chat.id)).messages[1];
    assert.equal(stored.status, "error");
    assert.equal(stored.content, "ab");
    assert.equal(stored.meta.error.message, "CUDA out of memory");
  });

  it("keeps the server's words when an error chunk is not followed by [DONE] (LiteLLM), not retryable for a 400", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({
      kind: "reply",
      pieces: ["a", "b"],
      errorAfter: 0,
      errorStatus: 400,
      errorMessage: "litellm.BadRequestError: context too long",
      errorWithoutDone: true,
    });
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    const error = errorOf(events);
    assert.equal(error.message, "litellm.BadRequestError: context too long");
    assert.equal(error.status, 400);
    assert.equal(error.retryable, false);
    assert.doesNotMatch(JSON.stringify(events), /closed the stream before it finished/);
    assert.equal(f.gateway.completions.length, 1);
  });

  const shapes = [
    { body: "detail" as const, status: 400, message: "Invalid model name passed in model=foo" },
    { body: "message" as const, status: 404, message: "The model `foo` does not exist." },
    { body: "string" as const, status: 404, message: 'model "foo" not found, try pulling it first' },
    { body: "text" as const, status: 502, message: "upstream connect error or disconnect/reset before headers" },
  ];
  for (const { body, status, message } of shapes) {
    it(`shows a ${status} whose body is shaped "${body}" in the server's words`, async () => {
      await f.s.api("PATCH", "/api/settings/app", { chat: { autoRetryFailedSends: false } });
      const chat = await newChat(f, { modelId: "fake/echo" });
      f.gateway.enqueue({ kind: "status", status, message, body });
      const error = errorOf(await readEvents(await send(f, chat.id, { content: "x" })));
      assert.deepEqual(error, { code: "upstream_error", message, status, retryable: status === 502 });
    });
  }

  it("tries a plain-text 500 that says the model does not exist once, with Auto-retry on", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    const message = "Model fake/echo@main does not exist";
    f.gateway.enqueue(
      ...Array.from({ length: 4 }, () => ({ kind: "status" as const, status: 500, message, body: "text" as const })),
    );
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.deepEqual(errorOf(events), { code: "upstream_error", message, status: 500, retryable: false });
    assert.equal(f.gateway.completions.length, 1);
  });

  it("still retries a plain 503 before the first token", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue(
      { kind: "status", status: 503, message: "loading the model", body: "text" },
      { kind: "reply", text: "ready" },
    );
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.equal(text(events), "ready");
    assert.equal(f.gateway.completions.length, 2);
  });

  it("says a 404 from a base URL without /v1 probably misses it, in chat and in the model list", async () => {
    await f.s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", baseUrl: f.gateway.url }] });
    const models = await f.s.api("GET", "/api/providers/gateway/models");
    assert.equal(models.status, 502);
    const body = (await models.json()).error;
    assert.equal(body.code, "upstream_error");
    assert.equal(body.status, 404);
    assert.equal(
      body.message,
      `the server answered 404 for /models; did you mean ${f.gateway.url}/v1? (the server said: Not found: GET /models)`,
    );
    const chat = await newChat(f, { modelId: "fake/echo" });
    const error = errorOf(await readEvents(await send(f, chat.id, { content: "x" })));
    assert.match(
      error.message,
      new RegExp(`^the server answered 404 for /chat/completions; did you mean ${f.gateway.url}/v1\\?`),
    );
    assert.equal(error.retryable, false);
  });
});

describe("self-hosted gateway dialect: usage, cost and finish", () => {
  let f: ChatFixture;
  beforeEach(async () => {
    f = await startChatFixture();
    f.gateway.dialect = { usageOnlyWhenAsked: true, noCost: true, bareModels: true };
  });
  afterEach(() => f.stop());

  it("asks for usage on every streamed request and gets it from a server that sends it only when asked", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["one ", "two ", "three"] });
    const events = await readEvents(await send(f, chat.id, { content: "count" }));
    assert.deepEqual((f.gateway.completions[0]!.body as any).stream_options, { include_usage: true });
    const usage = events.find((e) => e.event === "usage")!.data;
    assert.equal(usage.completionTokens, 3, "the server's own count, not an estimate");
    assert.equal(usage.costSource, "estimate");
    assert.equal(usage.cost, null, "no cost and no price: unknown, not 0");
  });

  it("keeps an unknown cost unknown in the chat's totals", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "one" }));
    await readEvents(await send(f, chat.id, { content: "two" }));
    const { usage, messages } = await chatOf(f, chat.id);
    assert.equal(messages[1].usage.cost, null);
    assert.equal(usage.turns, 2);
    assert.equal(usage.cost, null);
    assert.equal(usage.unknownCostTurns, 2);
    assert.ok(usage.promptTokens > 0);
  });

  it("keeps an unknown cost unknown in /api/usage, next to a group whose cost is known", async () => {
    const unpriced = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, unpriced.id, { content: "one" }));
    await f.s.api("PATCH", "/api/settings/app", {
      models: [{ id: "fake/slow", pricing: { prompt: 0.000001, completion: 0.000001 } }],
    });
    const priced = await newChat(f, { modelId: "fake/slow" });
    f.gateway.enqueue({ kind: "reply", pieces: ["ok"] });
    await readEvents(await send(f, priced.id, { content: "two" }));
    const rows = await (await f.s.api("GET", "/api/usage?groupBy=model")).json();
    const echo = rows.find((r: any) => r.key === "fake/echo");
    const slow = rows.find((r: any) => r.key === "fake/slow");
    assert.deepEqual([echo.cost, echo.unknownCostTurns, echo.turns], [null, 1, 1]);
    assert.equal(slow.unknownCostTurns, 0);
    assert.ok(slow.cost > 0);
  });

  it("estimates the cost from the price the user set for the model", async () => {
    assert.equal(
      (
        await f.s.api("PATCH", "/api/settings/app", {
          models: [{ id: "fake/echo", pricing: { prompt: 0.000002, completion: 0.00001 } }],
        })
      ).status,
      200,
    );
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["x", "y"] });
    const usage = (await readEvents(await send(f, chat.id, { content: "hi" }))).find((e) => e.event === "usage")!.data;
    assert.equal(usage.costSource, "estimate");
    assert.ok(Math.abs(usage.cost - (usage.promptTokens * 0.000002 + 2 * 0.00001)) < 1e-12);
    assert.equal((await chatOf(f, chat.id)).usage.cost, usage.cost);
  });

  it("stores and ends a turn cut at the token limit as truncated", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["Once ", "upon"], finishReason: "length" });
    const events = await readEvents(await send(f, chat.id, { content: "story" }));
    assert.equal(events.at(-1)!.data.finishReason, "length");
    assert.equal(names(events).includes("error"), false);
    const stored = (await chatOf(f, chat.id)).messages[1];
    assert.equal(stored.status, "truncated");
    assert.equal(stored.meta.finishReason, "length");
    assert.equal(stored.content, "Once upon");
  });

  it("takes a stream that ends after its finish_reason without [DONE] as complete", async () => {
    f.gateway.dialect.noDone = true;
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["all ", "here"] });
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.equal(text(events), "all here");
    assert.equal(names(events).includes("error"), false);
    assert.equal((await chatOf(f, chat.id)).messages[1].status, "complete");
  });

  it("lists bare model ids as they are: the id as label, no prices, no modalities", async () => {
    const models = await (await f.s.api("GET", "/api/providers/gateway/models")).json();
    assert.deepEqual(
      models.find((m: any) => m.id === "fake/echo"),
      {
        id: "fake/echo",
        label: "fake/echo",
        contextLength: null,
        pricing: {},
        inputModalities: [],
        outputModalities: [],
      },
    );
  });

  it("keeps the transcription slice honest when the server ignores the filter", async () => {
    const res = await f.s.api("GET", "/api/providers/gateway/models?slice=transcription");
    assert.deepEqual(await res.json(), [], "every model came back, none says it transcribes");
    await f.s.api("PATCH", "/api/settings/app", { models: [{ id: "openai/whisper-1", kind: "transcription" }] });
    const marked = await (await f.s.api("GET", "/api/providers/gateway/models?slice=transcription")).json();
    assert.deepEqual(
      marked.map((m: any) => m.id),
      ["openai/whisper-1"],
    );
  });
});

describe("self-hosted gateway dialect: per-model prices and kinds in settings", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("saves a price and a kind, and deletes the price with null", async () => {
    const saved = await (
      await f.s.api("PATCH", "/api/settings/app", {
        models: [{ id: "local/qwen", pricing: { prompt: 0, completion: 0.000001 }, kind: "chat" }],
      })
    ).json();
    assert.deepEqual(saved.models, [
      { id: "local/qwen", pricing: { prompt: 0, completion: 0.000001 }, kind: "chat", hasApiKey: false },
    ]);
    const cleared = await (
      await f.s.api("PATCH", "/api/settings/app", { models: [{ id: "local/qwen", pricing: null }] })
    ).json();
    assert.deepEqual(cleared.models, [{ id: "local/qwen", kind: "chat", hasApiKey: false }]);
  });

  const bad: [string, unknown][] = [
    ["a negative price", { prompt: -0.1, completion: 0 }],
    ["a price without completion", { prompt: 0.000001 }],
    ["a price as a string", { prompt: "0.000001", completion: "0" }],
    ["an unknown price field", { prompt: 0, completion: 0, image: 1 }],
    ["a price per million sent as per token", { prompt: 3, completion: 15 }],
  ];
  for (const [what, pricing] of bad) {
    it(`refuses ${what} with 400 and keeps the settings`, async () => {
      const res = await f.s.api("PATCH", "/api/settings/app", { models: [{ id: "local/qwen", pricing }] });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error.code, "invalid_request");
      assert.deepEqual((await (await f.s.api("GET", "/api/settings/app")).json()).models ?? [], []);
    });
  }

  it("refuses an unknown kind with 400", async () => {
    const res = await f.s.api("PATCH", "/api/settings/app", { models: [{ id: "local/qwen", kind: "video" }] });
    assert.equal(res.status, 400);
  });
});

describe("self-hosted gateway dialect: credits", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("answers {supported:false} with 200 when the server has neither /credits nor /key", async () => {
    f.gateway.dialect = { noCredits: true, errorBody: "detail" };
    const res = await f.s.api("GET", "/api/providers/gateway/credits");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { supported: false });
    assert.deepEqual(
      f.gateway.requests.filter((r) => r.path !== "/api/v1/models").map((r) => r.path),
      ["/api/v1/credits", "/api/v1/key"],
    );
  });

  it("answers 502 with the server's words for a real failure", async () => {
    f.gateway.validKeys = new Set(["sk-someone-else"]);
    const res = await f.s.api("GET", "/api/providers/gateway/credits");
    assert.equal(res.status, 502);
    const { error } = await res.json();
    assert.deepEqual(error, { code: "upstream_error", message: "No auth credentials found", status: 401 });
    await f.gateway.stop();
    assert.equal((await f.s.api("GET", "/api/providers/gateway/credits")).status, 502);
  });
});
