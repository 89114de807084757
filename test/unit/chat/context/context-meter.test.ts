import assert from "node:assert/strict";
import { ContextMeter, contextWindow, DEFAULT_CONTEXT_WINDOW } from "../../../../src/chat/context/context-meter";
import { sumLayers } from "../../../../src/chat/context/context-layers";
import { TokenCounter } from "../../../../src/chat/context/token-count";
import type { UpstreamMessage } from "../../../../src/chat/transcript";

describe("the context meter", () => {
  const counter = new TokenCounter((text) => text.length);

  it("takes the window from the catalog, then the models entry, then chat.contextWindow, then 128k", () => {
    const settings = { models: [{ id: "m", contextLength: 32_000 }], chat: { contextWindow: 64_000 } };
    assert.equal(contextWindow(settings, "m", 200_000), 200_000);
    assert.equal(contextWindow(settings, "m", null), 32_000);
    assert.equal(contextWindow(settings, "other", undefined), 64_000);
    assert.equal(contextWindow({}, "other", undefined), DEFAULT_CONTEXT_WINDOW);
  });

  it("places the turn's own messages by layer and what the loop appends by role", () => {
    const messages: UpstreamMessage[] = [
      { role: "system", content: "prompt" },
      { role: "user", content: "File: a.ts" },
      { role: "user", content: "go" },
    ];
    const meter = new ContextMeter(counter, 1000, ["system", "files", "history"]);
    const first = meter.measure(messages, []);
    assert.equal(first.source, "estimate");
    assert.equal(first.limit, 1000);
    messages.push({ role: "assistant", content: null, tool_calls: [] }, { role: "tool", content: "output" });
    const next = meter.measure(messages, []);
    assert.ok(next.layers.toolOutputs > 0);
    assert.ok(next.layers.history > first.layers.history);
    assert.equal(next.used, sumLayers(next.layers));
  });

  it("scales later estimates by the upstream's own count, and says so", () => {
    const meter = new ContextMeter(counter, 1000, ["history"]);
    const estimate = meter.measure([{ role: "user", content: "x".repeat(96) }], []);
    assert.equal(estimate.used, 100);
    meter.reconcile(150);
    const after = meter.measure([{ role: "user", content: "x".repeat(96) }], []);
    assert.deepEqual([after.used, after.source], [150, "upstream"]);
    assert.equal(sumLayers(after.layers), 150);
  });
});
