import assert from "node:assert/strict";
import fc from "fast-check";
import {
  CONTEXT_LAYERS,
  measureContext,
  scaleLayers,
  sumLayers,
  type ContextLayers,
} from "../../../../src/chat/context/context-layers";
import { MESSAGE_OVERHEAD_TOKENS, TOOL_OVERHEAD_TOKENS, TokenCounter } from "../../../../src/chat/context/token-count";

describe("context layers", () => {
  // One token a character, so the arithmetic is plain.
  const counter = new TokenCounter((text) => text.length);

  it("counts each message under its layer, and the tool definitions as sent", () => {
    const tools = [{ type: "function", function: { name: "shell" } }];
    const measure = measureContext(
      counter,
      [
        { message: { role: "system", content: "be brief" }, layer: "system" },
        { message: { role: "system", content: "AGENTS.md says" }, layer: "instructions" },
        { message: { role: "user", content: "File: a.ts\n…" }, layer: "files" },
        { message: { role: "user", content: "hi" }, layer: "history" },
        { message: { role: "tool", content: "output", tool_call_id: "c" }, layer: "toolOutputs" },
      ],
      tools,
    );
    const o = MESSAGE_OVERHEAD_TOKENS;
    assert.deepEqual(measure.layers, {
      system: 8 + o,
      instructions: 14 + o,
      tools: TOOL_OVERHEAD_TOKENS + "shell".length,
      files: 12 + o,
      history: 2 + o,
      toolOutputs: 6 + o,
      summary: 0,
    });
    assert.equal(measure.used, sumLayers(measure.layers));
  });

  it("scales the layers to the upstream's total, keeping their shares and adding up exactly", () => {
    const layerCounts = fc.record(
      Object.fromEntries(CONTEXT_LAYERS.map((l) => [l, fc.nat(100_000)])) as Record<
        keyof ContextLayers,
        fc.Arbitrary<number>
      >,
    );
    fc.assert(
      fc.property(layerCounts, fc.nat(1_000_000), (layers, used) => {
        const scaled = scaleLayers(layers, used);
        assert.equal(sumLayers(scaled), used);
        for (const layer of CONTEXT_LAYERS) {
          assert.ok(scaled[layer] >= 0);
          if (layers[layer] === 0 && sumLayers(layers) > 0) assert.equal(scaled[layer], 0);
        }
      }),
    );
  });
});
