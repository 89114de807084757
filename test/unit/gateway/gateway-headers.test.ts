import assert from "node:assert/strict";
import { upstreamHeaders } from "../../../src/gateway/gateway-headers";
import { isRetryableStatus, retryDelayMs } from "../../../src/chat/retry-policy";

describe("upstream headers", () => {
  it("sends the key as Bearer and both title headers", () => {
    assert.deepEqual(upstreamHeaders({ apiKey: "k", refererUrl: "http://127.0.0.1/parley" }), {
      authorization: "Bearer k",
      "http-referer": "http://127.0.0.1/parley",
      "x-gateway-title": "Parley",
      "x-title": "Parley",
    });
  });

  it("sends no Authorization header at all without a key (a keyless server), unless a provider header sets one", () => {
    for (const apiKey of [undefined, ""])
      assert.equal("authorization" in upstreamHeaders({ apiKey, refererUrl: "r" }), false, String(apiKey));
    assert.equal(
      upstreamHeaders({ refererUrl: "r", providerHeaders: { Authorization: "Basic abc" } }).authorization,
      "Basic abc",
    );
  });

  it("lets provider headers and then model headers override, whatever their case", () => {
    const headers = upstreamHeaders({
      apiKey: "k",
      refererUrl: "r",
      providerHeaders: { "X-Title": "P", "X-Extra": "1" },
      modelHeaders: { "x-title": "M" },
    });
    assert.equal(headers["x-title"], "M");
    assert.equal(headers["x-extra"], "1");
    assert.equal(Object.keys(headers).filter((k) => k.toLowerCase() === "x-title").length, 1);
  });
});

describe("retry policy", () => {
  it("retries timeouts, rate limits and server errors only", () => {
    for (const s of [408, 429, 500, 502, 503]) assert.ok(isRetryableStatus(s), String(s));
    for (const s of [400, 401, 402, 403, 404]) assert.ok(!isRetryableStatus(s), String(s));
  });

  it("backs off exponentially with jitter, honours Retry-After, and caps the wait", () => {
    assert.equal(
      retryDelayMs(0, 500, undefined, () => 0),
      250,
    );
    assert.equal(
      retryDelayMs(2, 500, undefined, () => 1),
      2000,
    );
    assert.equal(retryDelayMs(0, 500, "3"), 3000);
    assert.equal(retryDelayMs(0, 500, "600"), 10_000);
    assert.equal(
      retryDelayMs(20, 500, undefined, () => 1),
      10_000,
    );
  });
});
