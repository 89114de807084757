import assert from "node:assert/strict";
import { interpretChunk } from "../../../src/gateway/upstream-chunk";

describe("upstream chunk interpretation", () => {
  it("reads text, reasoning, finish and usage", () => {
    assert.deepEqual(
      interpretChunk({ choices: [{ delta: { content: "hi", reasoning: "hm" }, finish_reason: null }] }),
      [
        { type: "reasoning", text: "hm" },
        { type: "text", text: "hi" },
      ],
    );
    assert.deepEqual(interpretChunk({ choices: [{ delta: {}, finish_reason: "length" }] }), [
      { type: "finish", reason: "length" },
    ]);
    assert.deepEqual(interpretChunk({ choices: [], usage: { prompt_tokens: 1 } }), [
      { type: "usage", usage: { prompt_tokens: 1 } },
    ]);
  });

  it("reads the gateway's mid-stream error chunk once, with its numeric code as status", () => {
    const parts = interpretChunk({
      error: { code: 502, message: "Provider disconnected unexpectedly" },
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
    });
    assert.deepEqual(parts, [
      { type: "error", code: "upstream_error", message: "Provider disconnected unexpectedly", status: 502 },
    ]);
  });

  it("reads an OpenAI-style error with a string code (and the status it stands for), and finish_reason error without an error object", () => {
    assert.deepEqual(interpretChunk({ error: { code: "server_error", message: "boom" } }), [
      { type: "error", code: "server_error", message: "boom", status: 500 },
    ]);
    assert.equal(interpretChunk({ choices: [{ delta: {}, finish_reason: "error" }] })[0]!.type, "error");
  });

  it("reads a string error, as `transformers serve` sends it, with no status", () => {
    assert.deepEqual(interpretChunk({ error: "CUDA out of memory" }), [
      { type: "error", code: "upstream_error", message: "CUDA out of memory" },
    ]);
  });

  it("reads LiteLLM's string status code and an error object without a code", () => {
    assert.deepEqual(
      interpretChunk({
        error: { message: "litellm.BadRequestError: bad", type: "invalid_request_error", code: "400" },
      }),
      [{ type: "error", code: "upstream_error", message: "litellm.BadRequestError: bad", status: 400 }],
    );
    assert.deepEqual(interpretChunk({ error: { message: "Incorrect API key provided.", code: "invalid_api_key" } }), [
      { type: "error", code: "invalid_api_key", message: "Incorrect API key provided.", status: 401 },
    ]);
    assert.deepEqual(interpretChunk({ error: { type: "overloaded_error" } }), [
      { type: "error", code: "upstream_error", message: "the gateway reported an error", status: 503 },
    ]);
  });

  it("reads older vLLM's top-level error object", () => {
    assert.deepEqual(
      interpretChunk({ object: "error", message: "The model `x` does not exist.", type: "NotFoundError", code: 404 }),
      [{ type: "error", code: "upstream_error", message: "The model `x` does not exist.", status: 404 }],
    );
  });

  it("reads an error body streamed as it is: {detail}, FastAPI's {detail:[{msg}]} and a bare {message}", () => {
    assert.deepEqual(interpretChunk({ detail: "Invalid model name" }), [
      { type: "error", code: "upstream_error", message: "Invalid model name" },
    ]);
    assert.deepEqual(interpretChunk({ detail: [{ loc: ["body", "model"], msg: "Field required" }] }), [
      { type: "error", code: "upstream_error", message: "body.model: Field required" },
    ]);
    assert.deepEqual(interpretChunk({ message: "quota exhausted", status: 429 }), [
      { type: "error", code: "upstream_error", message: "quota exhausted", status: 429 },
    ]);
  });

  it("does not take a chunk with choices, or one without words, for an error", () => {
    assert.deepEqual(interpretChunk({ message: "hi", choices: [] }), []);
    assert.deepEqual(interpretChunk({ id: "x", usage: { prompt_tokens: 1 } }), [
      { type: "usage", usage: { prompt_tokens: 1 } },
    ]);
    assert.deepEqual(interpretChunk({ detail: { x: 1 } }), []);
  });

  it("keeps a finish_reason of length as a finish, not an error", () => {
    assert.deepEqual(interpretChunk({ choices: [{ delta: { content: "…" }, finish_reason: "length" }] }), [
      { type: "text", text: "…" },
      { type: "finish", reason: "length" },
    ]);
  });

  it("collects tool call deltas", () => {
    assert.deepEqual(
      interpretChunk({
        choices: [
          { delta: { tool_calls: [{ index: 0, id: "call_1", function: { name: "shell", arguments: '{"c' } }] } },
        ],
      }),
      [{ type: "tool_call", delta: { index: 0, id: "call_1", name: "shell", argumentsDelta: '{"c' } }],
    );
  });

  it("ignores shapes it does not know", () => {
    for (const odd of [
      null,
      3,
      "x",
      [],
      {},
      { choices: "no" },
      { choices: [null] },
      { usage: 5 },
      { error: "" },
      { error: null },
      { error: 7 },
    ])
      assert.deepEqual(interpretChunk(odd), []);
  });
});
