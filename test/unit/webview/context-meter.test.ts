import assert from "node:assert/strict";
import {
  contextLayers,
  contextLevel,
  contextPercent,
  contextShare,
  contextSourceLabel,
  contextSummary,
  formatTokenCount,
  nextRequestCostLabel,
} from "../../../webview/src/lib/context-meter";

const layers = {
  system: 1200,
  instructions: 300,
  tools: 4000,
  files: 0,
  history: 25_000,
  toolOutputs: 700,
  summary: 0,
};

describe("the context meter", () => {
  it("writes token counts in a few characters", () => {
    assert.equal(formatTokenCount(0), "0");
    assert.equal(formatTokenCount(950), "950");
    assert.equal(formatTokenCount(1000), "1k");
    assert.equal(formatTokenCount(1234), "1.2k");
    assert.equal(formatTokenCount(9_960), "10k");
    assert.equal(formatTokenCount(31_234), "31k");
    assert.equal(formatTokenCount(128_000), "128k");
    assert.equal(formatTokenCount(999_600), "1M");
    assert.equal(formatTokenCount(1_500_000), "1.5M");
    assert.equal(formatTokenCount(-5), "0");
  });

  it("says used / limit in words with a percentage", () => {
    assert.equal(contextSummary({ used: 31_234, limit: 128_000 }), "31k / 128k tokens · 24%");
    assert.equal(contextSummary({ used: 0, limit: 128_000 }), "0 / 128k tokens · 0%");
  });

  it("never shows a used context as 0%, nor more than 100%", () => {
    assert.equal(contextPercent({ used: 12, limit: 128_000 }), 1);
    assert.equal(contextPercent({ used: 200_000, limit: 128_000 }), 100);
    assert.equal(contextShare({ used: 200_000, limit: 128_000 }), 1);
    assert.equal(contextShare({ used: 5, limit: 0 }), 0);
  });

  it("warns from 60% and alarms above 85%", () => {
    assert.equal(contextLevel(0), "normal");
    assert.equal(contextLevel(0.599), "normal");
    assert.equal(contextLevel(0.6), "warning");
    assert.equal(contextLevel(0.85), "warning");
    assert.equal(contextLevel(0.851), "error");
    assert.equal(contextLevel(1), "error");
  });

  it("lists every layer in the order a request is built, with friendly names", () => {
    const list = contextLayers({ layers });
    assert.deepEqual(
      list.map((layer) => layer.label),
      ["System", "Instructions", "Tool definitions", "Files", "Conversation", "Tool outputs", "Summary"],
    );
    assert.deepEqual(
      list.map((layer) => layer.tokens),
      [1200, 300, 4000, 0, 25_000, 700, 0],
    );
  });

  it("tells an estimate from the model's own count", () => {
    assert.equal(contextSourceLabel("estimate"), "Estimated by Parley");
    assert.equal(contextSourceLabel("upstream"), "Counted by the model");
  });

  it("says what the next request would cost, or that nobody knows, and nothing for a live figure", () => {
    assert.equal(
      nextRequestCostLabel({ nextRequestCost: 0.0042 }),
      "The next request costs about $0.00420 before its answer.",
    );
    assert.match(nextRequestCostLabel({ nextRequestCost: null })!, /unknown: no price is known/);
    assert.equal(nextRequestCostLabel({}), undefined);
  });
});
