import assert from "node:assert/strict";
import fc from "fast-check";
import {
  compactionBudget,
  keptTokens,
  pinnedIndices,
  planCompaction,
  recentStart,
  type CompactionSettings,
} from "../../../../src/chat/context/compaction-plan";
import type { LayeredMessage } from "../../../../src/chat/context/context-layers";

const sys = (content: string): LayeredMessage => ({ message: { role: "system", content }, layer: "system" });
const user = (content: string): LayeredMessage => ({ message: { role: "user", content }, layer: "history" });
const call = (): LayeredMessage => ({
  message: { role: "assistant", content: null, tool_calls: [{ id: "c" }] },
  layer: "history",
});
const output = (content: string): LayeredMessage => ({
  message: { role: "tool", tool_call_id: "c", content },
  layer: "toolOutputs",
});
const answer = (content: string): LayeredMessage => ({ message: { role: "assistant", content }, layer: "history" });

const settings: CompactionSettings = { window: 100_000, threshold: 0.8, keepRecentTokens: 20_000 };

describe("compaction plan", () => {
  it("starts at threshold × window less the reserved output", () => {
    assert.equal(compactionBudget(settings), 80_000 - 16_000);
    assert.equal(compactionBudget({ ...settings, maxOutput: 4_000 }), 76_000);
  });

  it("pins the system layers, the first user message and the summary", () => {
    const messages: LayeredMessage[] = [
      sys("p"),
      { ...sys("AGENTS.md"), layer: "instructions" as const },
      { message: { role: "user", content: "File: a" }, layer: "files" as const },
      user("first"),
      { message: { role: "user", content: "summary" }, layer: "summary" as const },
      user("second"),
    ];
    assert.deepEqual([...pinnedIndices(messages)], [0, 1, 3, 4]);
  });

  it("never starts the recent part inside a step", () => {
    const messages = [sys("p"), user("go"), call(), output("x"), output("y"), answer("done")];
    // Enough room for the last two outputs and the answer, not for the call: the call comes too.
    assert.equal(recentStart(messages, [1, 1, 10, 10, 10, 10], 30), 2);
  });

  it("does nothing while the request fits", () => {
    const messages = [sys("p"), user("go")];
    assert.equal(planCompaction(messages, [10, 10], 0, settings, { stubTokens: 15 }), undefined);
  });

  it("prunes old tool outputs first, and summarises only when that is not enough", () => {
    const messages = [sys("p"), user("go"), call(), output("a"), call(), output("b"), call(), output("c")];
    const tokens = [100, 50, 20, 30_000, 20, 30_000, 20, 15_000];
    const plan = planCompaction(messages, tokens, 1_000, settings, { stubTokens: 15 })!;
    assert.deepEqual(plan.prune, [3, 5], "the recent output stays");
    assert.equal(plan.summarise, undefined);
    assert.ok(plan.afterPrune <= plan.budget);

    const chatty = [sys("p"), user("go"), answer("x".repeat(10)), user("more"), answer("y"), user("last")];
    const big = [100, 50, 40_000, 50, 40_000, 50];
    const summarised = planCompaction(chatty, big, 0, settings, { stubTokens: 15 })!;
    assert.deepEqual(summarised.prune, []);
    assert.deepEqual(summarised.summarise, { from: 2, to: 5 });
  });

  it("never plans to touch a pinned message, and leaves the recent part whole (property)", () => {
    const layered = fc.oneof(
      fc.constant(user("u")),
      fc.constant(answer("a")),
      fc.constant(call()),
      fc.constant(output("o")),
      fc.constant({ message: { role: "user", content: "s" }, layer: "summary" as const }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(layered, fc.integer({ min: 1, max: 40_000 })), { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        (rows, force) => {
          const messages = [sys("p"), ...rows.map(([m]) => m)];
          const tokens = [200, ...rows.map(([, t]) => t)];
          const plan = planCompaction(messages, tokens, 500, settings, { stubTokens: 15, force });
          if (!plan) return;
          const pinned = pinnedIndices(messages);
          const recent = recentStart(messages, tokens, keptTokens(tokens, pinned, settings, force));
          for (const i of plan.prune) {
            assert.ok(!pinned.has(i));
            assert.equal(messages[i]!.layer, "toolOutputs");
            assert.ok(i < recent);
          }
          if (plan.summarise) {
            assert.ok(plan.summarise.to <= recent);
            assert.ok(!pinned.has(plan.summarise.from));
          }
        },
      ),
    );
  });

  it("brings any request that can fit under the window: pinned and recent parts, stubs, a summary (property)", () => {
    const SUMMARY = 1_500;
    const STUB = 15;
    const layered = fc.oneof(
      fc.constant(user("u")),
      fc.constant(answer("a")),
      fc.constant(call()),
      fc.constant(output("o")),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(layered, fc.integer({ min: 1, max: 30_000 })), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.boolean(),
        (rows, extra, force) => {
          const messages = [sys("p"), user("first"), ...rows.map(([m]) => m)];
          const tokens = [300, 200, ...rows.map(([, t]) => t)];
          const plan = planCompaction(messages, tokens, extra, settings, { stubTokens: STUB, force });
          const total = extra + tokens.reduce((a, b) => a + b, 0);
          if (!plan) return assert.ok(total <= compactionBudget(settings));
          // What is sent after the plan: pinned messages, the recent part, stubs for pruned outputs
          // outside the summarised range, and the summary.
          const pinned = pinnedIndices(messages);
          let after = extra;
          tokens.forEach((count, i) => {
            const summarised = plan.summarise && i >= plan.summarise.from && i < plan.summarise.to && !pinned.has(i);
            if (summarised) return;
            after += plan.prune.includes(i) ? STUB : count;
          });
          if (plan.summarise) after += SUMMARY;
          // Whatever cannot be compacted (pinned, the recent part kept whole) is at most a third of
          // the window plus the pinned messages: with those small, the request fits the window.
          const recent = recentStart(messages, tokens, keptTokens(tokens, pinned, settings, force));
          let fixed = extra + SUMMARY;
          tokens.forEach((count, i) => {
            if (pinned.has(i) || i >= recent) fixed += count;
          });
          if (fixed <= settings.window - STUB * messages.length) assert.ok(after <= settings.window, `${after}`);
        },
      ),
    );
  });
});
