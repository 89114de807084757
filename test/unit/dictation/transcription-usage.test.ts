import assert from "node:assert/strict";
import { transcriptionUsage, upstreamTranscriptionUsage } from "../../../src/dictation/transcription-usage";

describe("transcription usage", () => {
  const pricing = { prompt: 0.000002, completion: 0.00001 };

  it("keeps the gateway's cost and reads input/output tokens as prompt/completion", () => {
    const usage = transcriptionUsage(
      { input_tokens: 120, output_tokens: 8, total_tokens: 128, seconds: 9.2, cost: 0.0005 },
      "hi",
      pricing,
    );
    assert.deepEqual(usage, {
      promptTokens: 120,
      completionTokens: 8,
      totalTokens: 128,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      cost: 0.0005,
      costSource: "gateway",
    });
  });

  it("prices reported tokens with the model's price when the gateway sends no cost", () => {
    const usage = transcriptionUsage(
      { type: "tokens", input_tokens: 100, output_tokens: 10, total_tokens: 110 },
      "hi",
      pricing,
    );
    assert.equal(usage.costSource, "estimate");
    assert.equal(usage.cost, 100 * 0.000002 + 10 * 0.00001);
  });

  it("reads an audio-input chat model's usage as chat usage", () => {
    const usage = transcriptionUsage(
      { prompt_tokens: 50, completion_tokens: 5, total_tokens: 55, cost: 0.001 },
      "hi",
      pricing,
    );
    assert.deepEqual(
      [usage.promptTokens, usage.completionTokens, usage.cost, usage.costSource],
      [50, 5, 0.001, "gateway"],
    );
  });

  it("keeps a gateway cost even when it reports only seconds", () => {
    const usage = transcriptionUsage({ seconds: 12, cost: 0.0012 }, "hello there", pricing);
    assert.deepEqual([usage.promptTokens, usage.cost, usage.costSource], [0, 0.0012, "gateway"]);
  });

  it("leaves the cost unknown, never 0, when the audio's size is unknown", () => {
    for (const raw of [undefined, null, "usage", [], { type: "duration", seconds: 3 }, { output_tokens: 4 }]) {
      const usage = transcriptionUsage(raw, "twelve chars", pricing);
      assert.equal(usage.cost, null, JSON.stringify(raw));
      assert.equal(usage.promptTokens, 0);
    }
    assert.equal(
      transcriptionUsage(undefined, "twelve chars", pricing).completionTokens,
      3,
      "the transcript's tokens are estimated",
    );
    assert.equal(transcriptionUsage({ output_tokens: 4 }, "x", pricing).completionTokens, 4);
  });

  it("reports and refuses an absurd cost instead of billing it", () => {
    const reported: string[] = [];
    const usage = transcriptionUsage({ cost: -3 }, "x", pricing, (field) => reported.push(field));
    assert.equal(usage.cost, null);
    assert.deepEqual(reported, ["cost"]);
    const huge = transcriptionUsage({ input_tokens: 1e308, cost: 1e9 }, "x", pricing, (field) => reported.push(field));
    assert.ok(huge.cost === null || huge.cost <= 10_000);
    assert.ok(reported.includes("prompt_tokens"));
  });

  it("maps nothing from a usage without any figure", () => {
    assert.equal(upstreamTranscriptionUsage({ type: "tokens" }), undefined);
    assert.deepEqual(upstreamTranscriptionUsage({ input_tokens: 3 }), { prompt_tokens: 3 });
  });
});
