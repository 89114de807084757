import assert from "node:assert/strict";
import type { UpstreamRequest } from "../../../src/shared/requests";
import { cachedPercent, causeLabel, requestCost, turnRequestRows } from "../../../webview/src/lib/request-rows";

function request(overrides: Partial<UpstreamRequest>): UpstreamRequest {
  return {
    turnId: "t1",
    step: 0,
    cause: "turn",
    model: "fake/echo",
    promptTokens: 1000,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    completionTokens: 20,
    cost: 0.002,
    costSource: "gateway",
    at: "2026-01-01T00:00:00.000Z",
    ...overrides,
  };
}

describe("the requests of a turn", () => {
  it("names every cause in words", () => {
    assert.deepEqual((["turn", "tool_step", "retry", "compaction", "subagent"] as const).map(causeLabel), [
      "Turn",
      "After tools",
      "Retry",
      "Compaction",
      "Subagent",
    ]);
  });

  it("says how much of the prompt came from the cache", () => {
    assert.equal(cachedPercent({ promptTokens: 1000, cachedTokens: 820 }), "82%");
    assert.equal(cachedPercent({ promptTokens: 1000, cachedTokens: 0 }), "0%");
    assert.equal(cachedPercent({ promptTokens: 1000, cachedTokens: 1 }), "1%");
    assert.equal(cachedPercent({ promptTokens: 200, cachedTokens: 199 }), "99%");
    assert.equal(cachedPercent({ promptTokens: 0, cachedTokens: 0 }), "—");
  });

  it("marks an estimated cost and says when it is unknown", () => {
    assert.equal(requestCost({ cost: 0.002, costSource: "gateway" }), "$0.00200");
    assert.equal(requestCost({ cost: 0.25, costSource: "estimate" }), "$0.250 (est.)");
    assert.equal(requestCost({ cost: null, costSource: "estimate" }), "unknown");
  });

  it("keeps only the turn's requests, in step order", () => {
    const rows = turnRequestRows(
      [
        request({ step: 1, cause: "tool_step", promptTokens: 1500, cachedTokens: 1200, completionTokens: 40 }),
        request({ turnId: "t0", step: 0 }),
        request({ step: 0 }),
      ],
      "t1",
    );
    assert.deepEqual(
      rows.map(({ step, cause, prompt, cached, output, cost }) => ({ step, cause, prompt, cached, output, cost })),
      [
        { step: 0, cause: "Turn", prompt: (1000).toLocaleString(), cached: "0%", output: "20", cost: "$0.00200" },
        {
          step: 1,
          cause: "After tools",
          prompt: (1500).toLocaleString(),
          cached: "80%",
          output: "40",
          cost: "$0.00200",
        },
      ],
    );
    assert.equal(new Set(rows.map((row) => row.key)).size, 2);
    assert.deepEqual(turnRequestRows([request({})], "other"), []);
  });
});
