import assert from "node:assert/strict";
import {
  formatCachedShare,
  formatCost,
  formatTotalCost,
  formatUsage,
  priceLabel,
} from "../../../webview/src/lib/format";
import { modelPricing, perMillionText, perTokenFromPerMillion, userPrices } from "../../../webview/src/lib/pricing";

describe("UI prices", () => {
  it("reads a typed price per million tokens as a clean price per token", () => {
    assert.equal(perTokenFromPerMillion("0.10"), 1e-7);
    assert.equal(perTokenFromPerMillion(" $3 "), 0.000003);
    assert.equal(perTokenFromPerMillion("15."), 0.000015);
    assert.equal(perTokenFromPerMillion(".5"), 5e-7);
    assert.equal(perTokenFromPerMillion("0"), 0);
  });

  it("refuses what is not a price", () => {
    for (const bad of ["", "cheap", "-1", "1e3", "1,5", "0x10", "Infinity", "1.2.3", "2000000"])
      assert.equal(perTokenFromPerMillion(bad), undefined, bad);
  });

  it("shows a stored per-token price per million without float noise", () => {
    assert.equal(perMillionText(1e-7), "0.1");
    assert.equal(perMillionText(0.000015), "15");
    assert.equal(perMillionText(perTokenFromPerMillion("0.15")!), "0.15");
  });

  it("uses the user's price first, the catalog's next, and invents none", () => {
    const mine = userPrices([
      { id: "local/qwen", pricing: { prompt: 1e-7, completion: 4e-7 } },
      { id: "half", pricing: { prompt: 1 } },
      null,
      "x",
    ]);
    assert.deepEqual([...mine.keys()], ["local/qwen"]);
    assert.deepEqual(modelPricing({ id: "local/qwen", pricing: {} }, mine), { prompt: 1e-7, completion: 4e-7 });
    assert.deepEqual(modelPricing({ id: "a/b", pricing: { prompt: 1e-6, completion: 2e-6 } }, mine), {
      prompt: 1e-6,
      completion: 2e-6,
    });
    assert.equal(modelPricing({ id: "bare", pricing: {} }, mine), undefined);
    assert.equal(priceLabel(undefined), "");
    assert.equal(priceLabel({ prompt: 1.5e-7, completion: 6e-7 }), "$0.15 / $0.60 per 1M");
    assert.deepEqual(userPrices(undefined).size, 0);
  });
});

describe("UI costs", () => {
  const usage = {
    promptTokens: 10,
    completionTokens: 5,
    totalTokens: 15,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
  };

  it("says cost unknown for a null cost, and never rounds a tiny cost to $0", () => {
    assert.equal(formatCost(null), "cost unknown");
    assert.equal(formatCost(0), "$0");
    assert.equal(formatCost(0.0000018), "< $0.00001");
    assert.equal(formatCost(0.00123), "$0.00123");
    assert.equal(formatUsage({ ...usage, cost: null, costSource: "estimate" }), "10 in · 5 out · cost unknown");
    assert.equal(formatUsage({ ...usage, cost: 0.5, costSource: "estimate" }), "10 in · 5 out · $0.500 (estimated)");
    assert.equal(formatUsage({ ...usage, cost: 0.5, costSource: "gateway" }), "10 in · 5 out · $0.500");
  });

  it("adds the cached share of the prompt beside the cost when the vendor read from its cache", () => {
    assert.equal(
      formatUsage({ ...usage, promptTokens: 1000, cachedTokens: 820, cost: 0.5, costSource: "gateway" }),
      "1,000 in · 5 out · $0.500 · 82% cached",
    );
    assert.equal(formatCachedShare({ promptTokens: 1000, cachedTokens: 0 }), "");
    assert.equal(formatCachedShare({ promptTokens: 0, cachedTokens: 10 }), "");
    assert.equal(formatCachedShare({ promptTokens: 100_000, cachedTokens: 3 }), "1% cached");
    assert.equal(formatCachedShare({ promptTokens: 100, cachedTokens: 120 }), "100% cached");
    assert.equal(formatCachedShare({ promptTokens: 200, cachedTokens: 199 }), "99% cached");
  });

  it("says how many turns of a chat have an unknown cost", () => {
    assert.equal(formatTotalCost({ cost: 0.25, unknownCostTurns: 0, turns: 3 }), "$0.250");
    assert.equal(formatTotalCost({ cost: null, unknownCostTurns: 3, turns: 3 }), "cost unknown");
    assert.equal(formatTotalCost({ cost: null, unknownCostTurns: 1, turns: 3 }), "cost unknown (1 of 3 turns)");
  });
});
