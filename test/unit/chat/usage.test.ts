import assert from "node:assert/strict";
import {
  addToTotals,
  effectivePricing,
  emptyTotals,
  estimateCost,
  estimateUsage,
  normalizeUsage,
} from "../../../src/chat/usage";

const pricing = { prompt: 0.000003, completion: 0.000015, input_cache_read: 0.0000003 };

describe("usage accounting", () => {
  it("takes the gateway's cost when it reports one", () => {
    const usage = normalizeUsage(
      {
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        cost: 0.5,
        prompt_tokens_details: { cached_tokens: 40 },
        completion_tokens_details: { reasoning_tokens: 5 },
      },
      pricing,
    );
    assert.deepEqual(usage, {
      promptTokens: 100,
      completionTokens: 20,
      totalTokens: 120,
      cachedTokens: 40,
      cacheWriteTokens: 0,
      reasoningTokens: 5,
      cost: 0.5,
      costSource: "gateway",
    });
  });

  it("reads the tokens written to the cache, and prices them at the cache-write price", () => {
    const usage = normalizeUsage(
      {
        prompt_tokens: 1000,
        completion_tokens: 10,
        prompt_tokens_details: { cached_tokens: 600, cache_write_tokens: 300 },
      },
      { prompt: 0.001, completion: 0.002, input_cache_read: 0.0001, input_cache_write: 0.00125 },
    );
    assert.equal(usage.cacheWriteTokens, 300);
    // 100 plain, 600 read, 300 written, 10 out.
    assert.ok(Math.abs(usage.cost! - (100 * 0.001 + 600 * 0.0001 + 300 * 0.00125 + 10 * 0.002)) < 1e-12);
  });

  it("estimates from live prices otherwise, pricing cached tokens at the cache-read price", () => {
    const usage = normalizeUsage(
      { prompt_tokens: 100, completion_tokens: 20, prompt_tokens_details: { cached_tokens: 40 } },
      pricing,
    );
    assert.equal(usage.costSource, "estimate");
    assert.equal(usage.totalTokens, 120);
    assert.ok(Math.abs(usage.cost! - (60 * 0.000003 + 40 * 0.0000003 + 20 * 0.000015)) < 1e-15);
  });

  it("says null rather than inventing a cost when no prices are known", () => {
    assert.equal(normalizeUsage({ prompt_tokens: 1, completion_tokens: 1 }, undefined).cost, null);
    assert.equal(estimateCost({ promptTokens: 1, completionTokens: 1, cachedTokens: 0 }, { prompt: 1 }), null);
  });

  it("treats negative, missing or non-numeric counts as zero", () => {
    const usage = normalizeUsage({ prompt_tokens: -3, completion_tokens: Number.NaN } as never, pricing);
    assert.equal(usage.promptTokens, 0);
    assert.equal(usage.completionTokens, 0);
  });

  it("estimates tokens at about four characters each when no usage arrived", () => {
    const usage = estimateUsage("12345678", "1234", undefined);
    assert.equal(usage.promptTokens, 2);
    assert.equal(usage.completionTokens, 1);
    assert.equal(usage.costSource, "estimate");
  });

  it("adds turns into totals, keeping the total cost unknown once any turn's cost is unknown", () => {
    const a = normalizeUsage({ prompt_tokens: 1, completion_tokens: 2, cost: 0.1 }, undefined);
    const b = normalizeUsage({ prompt_tokens: 3, completion_tokens: 4 }, undefined);
    const known = addToTotals(emptyTotals(), a);
    assert.deepEqual(known, {
      promptTokens: 1,
      completionTokens: 2,
      totalTokens: 3,
      cachedTokens: 0,
      reasoningTokens: 0,
      cost: 0.1,
      unknownCostTurns: 0,
      turns: 1,
    });
    assert.deepEqual(addToTotals(known, b), {
      promptTokens: 4,
      completionTokens: 6,
      totalTokens: 10,
      cachedTokens: 0,
      reasoningTokens: 0,
      cost: null,
      unknownCostTurns: 1,
      turns: 2,
    });
    assert.equal(addToTotals(addToTotals(emptyTotals(), b), a).cost, null, "in either order");
    assert.equal(emptyTotals().cost, 0, "no turns cost nothing");
  });

  it("estimates with the user's price for a model before the catalog's, and only a complete one", () => {
    const user = { prompt: 0.000001, completion: 0.000002 };
    assert.equal(effectivePricing(user, pricing), user);
    assert.equal(effectivePricing(undefined, pricing), pricing);
    assert.equal(effectivePricing({ prompt: 1 }, pricing), pricing);
    assert.equal(effectivePricing(undefined, undefined), undefined);
    const usage = estimateUsage("12345678", "1234", effectivePricing(user, undefined));
    assert.ok(Math.abs(usage.cost! - (2 * 0.000001 + 1 * 0.000002)) < 1e-15);
    assert.equal(usage.costSource, "estimate");
  });
});
