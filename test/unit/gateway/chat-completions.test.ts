import assert from "node:assert/strict";
import { streamChatCompletion, type ChatCompletionBody } from "../../../src/gateway/chat-completions";
import { StreamDroppedError, UpstreamError } from "../../../src/gateway/http";
import type { ChunkPart } from "../../../src/gateway/upstream-chunk";
import { connection, KEY, openGatewayDouble, sse, type GatewayDouble } from "./gateway-double";

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

describe("gateway client: a streamed chat completion", () => {
  let gateway: GatewayDouble;
  beforeEach(() => (gateway = openGatewayDouble()));
  afterEach(() => gateway.close());

  const body = (extra: Record<string, unknown> = {}): ChatCompletionBody => ({
    model: "fake/echo",
    messages: [{ role: "user", content: "hi" }],
    stream: true,
    ...extra,
  });
  const answer = (status: number, text: string, headers: Record<string, string> = {}) =>
    gateway.pool
      .intercept({ path: "/api/v1/chat/completions", method: "POST" })
      .reply(status, text, { headers: { "content-type": "text/event-stream", ...headers } });
  const collect = async (request = body()) => {
    const parts: ChunkPart[] = [];
    for await (const part of streamChatCompletion(connection, request, new AbortController().signal)) parts.push(part);
    return parts;
  };

  it("posts the body as JSON with the key, asking for the event stream and for usage", async () => {
    answer(200, sse(chunk({ content: "ok" }, "stop"), "[DONE]"));
    await collect(body({ temperature: 0.2, tools: [] }));
    const [seen] = gateway.seen;
    assert.equal(seen!.path, "/api/v1/chat/completions");
    assert.deepEqual(
      [seen!.headers.authorization, seen!.headers["content-type"], seen!.headers.accept],
      [`Bearer ${KEY}`, "application/json", "text/event-stream"],
    );
    assert.deepEqual(JSON.parse(seen!.body), {
      ...body({ temperature: 0.2, tools: [] }),
      stream_options: { include_usage: true },
    });
  });

  it("keeps the caller's stream options and always turns usage on", async () => {
    answer(200, sse("[DONE]"));
    await collect(body({ stream_options: { include_usage: false, continuous_usage_stats: true } }));
    assert.deepEqual(JSON.parse(gateway.seen[0]!.body).stream_options, {
      include_usage: true,
      continuous_usage_stats: true,
    });
    answer(200, sse("[DONE]"));
    await collect(body({ stream_options: ["not", "an", "object"] }));
    assert.deepEqual(JSON.parse(gateway.seen[1]!.body).stream_options, { include_usage: true });
  });

  it("yields each chunk's parts in order and nothing after [DONE]", async () => {
    const usage = { prompt_tokens: 3, completion_tokens: 2 };
    answer(
      200,
      sse(
        chunk({ role: "assistant", reasoning: "hm" }),
        chunk({ content: "Hel" }),
        "not json at all",
        chunk({ content: "lo" }, "stop"),
        { choices: [], usage },
        "[DONE]",
        chunk({ content: "late" }),
      ),
    );
    assert.deepEqual(await collect(), [
      { type: "reasoning", text: "hm" },
      { type: "text", text: "Hel" },
      { type: "text", text: "lo" },
      { type: "finish", reason: "stop" },
      { type: "usage", usage },
    ]);
  });

  it("fails with the upstream status, its words and Retry-After before any part", async () => {
    answer(429, JSON.stringify({ error: { message: "Rate limit exceeded: slow down" } }), {
      "retry-after": "12",
      "content-type": "application/json",
    });
    await assert.rejects(
      collect(),
      (error: unknown) =>
        error instanceof UpstreamError &&
        error.status === 429 &&
        error.retryAfter === "12" &&
        error.message === "Rate limit exceeded: slow down",
    );
  });

  it("counts a body that ends without [DONE] or a finish as a dropped stream, after the parts it brought", async () => {
    answer(200, sse(chunk({ content: "par" })));
    const parts: ChunkPart[] = [];
    await assert.rejects(
      (async () => {
        for await (const part of streamChatCompletion(connection, body(), new AbortController().signal))
          parts.push(part);
      })(),
      StreamDroppedError,
    );
    assert.deepEqual(parts, [{ type: "text", text: "par" }]);
  });

  it("takes a finish or an error chunk without [DONE] as the end (servers that close right after it)", async () => {
    answer(200, sse(chunk({ content: "a" }, "length")));
    assert.deepEqual(await collect(), [
      { type: "text", text: "a" },
      { type: "finish", reason: "length" },
    ]);
    answer(200, sse({ error: { message: "Provider disconnected", code: 502 } }));
    assert.deepEqual(await collect(), [
      { type: "error", code: "upstream_error", message: "Provider disconnected", status: 502 },
    ]);
  });

  it("takes plain text that ends the stream, an `event: error`, or a 200 body that is no stream for the error", async () => {
    const error = (message: string) => ({ type: "error", code: "upstream_error", message });
    answer(200, sse(chunk({ content: "a" }), "model crashed"));
    assert.deepEqual(await collect(), [{ type: "text", text: "a" }, error("model crashed")]);
    answer(200, `event: error\ndata: overloaded, try later\n\n${sse("[DONE]")}`);
    assert.deepEqual(await collect(), [error("overloaded, try later")]);
    answer(200, JSON.stringify({ detail: "Not authenticated" }), { "content-type": "application/json" });
    assert.deepEqual(await collect(), [error("Not authenticated")]);
    answer(200, ": keep-alive\n\nInternal Server Error");
    assert.deepEqual(await collect(), [error("Internal Server Error")]);
  });

  it("still counts a stream cut inside an event, or only keep-alives, as dropped", async () => {
    answer(200, `: keep-alive\n\ndata: {"choices":[{"delta":{"content":"cut`);
    await assert.rejects(collect(), StreamDroppedError);
    answer(200, ": keep-alive\n\n: keep-alive\n\n");
    await assert.rejects(collect(), StreamDroppedError);
  });
});
