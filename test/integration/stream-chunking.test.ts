// A recorded gateway stream cut at every byte offset (real HTTP, one write per piece) must yield
// exactly the same parts: comments, CRLF, multi-line data, usage, [DONE].
import assert from "node:assert/strict";
import { FakeGateway } from "../fake-gateway/server";
import { streamChatCompletion } from "../../src/gateway/chat-completions";
import type { ChunkPart } from "../../src/gateway/upstream-chunk";

const chunk = (delta: object, finish: string | null = null) =>
  JSON.stringify({
    id: "gen-1",
    object: "chat.completion.chunk",
    model: "fake/echo",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

/** As recorded from the gateway, with the framing variations the SSE spec allows. */
export const RECORDED_STREAM =
  ": GATEWAY PROCESSING\n\n" +
  `data: ${chunk({ role: "assistant", content: "Hé" })}\r\n\r\n` +
  ": GATEWAY PROCESSING\r\n\r\n" +
  // One JSON object split over two data: lines (joined with a newline, still valid JSON).
  `data: {"id":"gen-1","object":"chat.completion.chunk","model":"fake/echo",\ndata: "choices":[{"index":0,"delta":{"content":"llo 🌍"},"finish_reason":null}]}\n\n` +
  `data:${chunk({ content: " world" })}\n\n` +
  `data: ${chunk({}, "stop")}\n\n` +
  `data: ${JSON.stringify({ id: "gen-1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, cost: 0.0001 } })}\n\n` +
  "data: [DONE]\n\n";

const EXPECTED: ChunkPart[] = [
  { type: "text", text: "Hé" },
  { type: "text", text: "llo 🌍" },
  { type: "text", text: " world" },
  { type: "finish", reason: "stop" },
  { type: "usage", usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8, cost: 0.0001 } },
];

describe("upstream stream chunking over HTTP", function () {
  this.timeout(120_000);
  let gateway: FakeGateway;
  before(async () => (gateway = await new FakeGateway().start()));
  after(() => gateway.stop());

  const collect = async () => {
    const parts: ChunkPart[] = [];
    const connection = { baseUrl: gateway.baseUrl, headers: { authorization: "Bearer sk-x" } };
    for await (const part of streamChatCompletion(
      connection,
      { model: "fake/echo", messages: [], stream: true },
      new AbortController().signal,
    ))
      parts.push(part);
    return parts;
  };

  it("parses the recorded stream identically when it is cut at every byte offset", async () => {
    const bytes = Buffer.from(RECORDED_STREAM, "utf8");
    for (let offset = 1; offset < bytes.length; offset++) {
      // Cut the UTF-8 bytes, so multi-byte characters are split too.
      const first = bytes.subarray(0, offset).toString("latin1");
      const rest = bytes.subarray(offset).toString("latin1");
      gateway.enqueue({ kind: "raw", body: first + rest, splitAt: [first.length], delayMs: 1, latin1: true });
      assert.deepEqual(await collect(), EXPECTED, `cut at byte ${offset}`);
    }
  });

  it("parses it one byte per write", async () => {
    gateway.enqueue({
      kind: "raw",
      body: Buffer.from(RECORDED_STREAM, "utf8").toString("latin1"),
      chunkBytes: 1,
      latin1: true,
    });
    assert.deepEqual(await collect(), EXPECTED);
  });
});
