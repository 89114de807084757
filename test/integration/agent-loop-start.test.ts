// The agent loop's promise to its callers about its first step: the chat turn stores the user's
// message only after the loop has sent its first request, relying on nothing being emitted or
// hooked before then.
import assert from "node:assert/strict";
import { FakeGateway } from "../fake-gateway/server";
import { runAgentLoop } from "../../src/chat/agent-loop";
import type { ToolRunContext } from "../../src/tools/tool-runner";
import type { ResolvedSettings } from "../../src/shared/settings";

describe("agent loop, first step", () => {
  let gateway: FakeGateway;
  before(async () => (gateway = await new FakeGateway().start()));
  after(() => gateway.stop());

  it("emits nothing and calls no hook but beforeStep(0) until its first request is on its way", async () => {
    const calls: string[] = [];
    const events: string[] = [];
    const running = runAgentLoop({
      resolved: {
        providerId: "gateway",
        modelId: "fake/echo",
        connection: { baseUrl: gateway.baseUrl, headers: { authorization: "Bearer sk-fake" } },
      },
      messages: [{ role: "user", content: "hi" }],
      tools: [],
      settings: { chat: { maxSteps: 1, maxTurnCost: 0.000001 } } as unknown as ResolvedSettings,
      retryBaseMs: 1,
      signal: new AbortController().signal,
      emit: (event) => events.push(event.event),
      toolContext: {} as ToolRunContext,
      callIdPrefix: "call_t",
      hooks: {
        beforeStep: (step) => calls.push(`beforeStep ${step}`),
        stepDone: () => calls.push("stepDone"),
        toolDone: () => calls.push("toolDone"),
        stopped: () => calls.push("stopped"),
        usageOf: () =>
          ({ promptTokens: 1, completionTokens: 1, totalTokens: 2, cost: 1, costSource: "gateway" }) as never,
      },
    });
    assert.deepEqual(calls, ["beforeStep 0"]);
    assert.deepEqual(events, []);
    const result = await running;
    // The step ran even though a one-step limit and a tiny budget would stop a second one.
    assert.equal(result.text, "You said: hi");
    assert.deepEqual(calls, ["beforeStep 0", "stepDone"]);
    assert.equal(events.at(-1), "usage");
    assert.equal(gateway.completions.length, 1);
  });
});
