import assert from "node:assert/strict";
import { interpretChunk } from "../../../src/core/upstream-chunk";

describe("upstream chunk interpretation", () => {
  it("reads text, reasoning, finish and usage", () => {
    assert.deepEqual(interpretChunk({ choices: [{ delta: { content: "hi", reasoning: "hm" }, finish_reason: null }] }), [
      { type: "reasoning", text: "hm" },
      { type: "text", text: "hi" },
    ]);
    assert.deepEqual(interpretChunk({ choices: [{ delta: {}, finish_reason: "length" }] }), [{ type: "finish", reason: "length" }]);
    assert.deepEqual(interpretChunk({ choices: [], usage: { prompt_tokens: 1 } }), [{ type: "usage", usage: { prompt_tokens: 1 } }]);
  });

  it("reads the gateway's mid-stream error chunk once, with its numeric code as status", () => {
    const parts = interpretChunk({
      error: { code: 502, message: "Provider disconnected unexpectedly" },
      choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
    });
    assert.deepEqual(parts, [{ type: "error", code: "upstream_error", message: "Provider disconnected unexpectedly", status: 502 }]);
  });

  it("reads an OpenAI-style error with a string code, and finish_reason error without an error object", () => {
    assert.deepEqual(interpretChunk({ error: { code: "server_error", message: "boom" } }), [{ type: "error", code: "server_error", message: "boom" }]);
    assert.equal(interpretChunk({ choices: [{ delta: {}, finish_reason: "error" }] })[0]!.type, "error");
  });

  it("collects tool call deltas", () => {
    assert.deepEqual(interpretChunk({ choices: [{ delta: { tool_calls: [{ index: 0, id: "call_1", function: { name: "shell", arguments: '{"c' } }] } }] }), [
      { type: "tool_call", delta: { index: 0, id: "call_1", name: "shell", argumentsDelta: '{"c' } },
    ]);
  });

  it("ignores shapes it does not know", () => {
    for (const odd of [null, 3, "x", [], {}, { choices: "no" }, { choices: [null] }, { usage: 5 }]) assert.deepEqual(interpretChunk(odd), []);
  });
});
