// Compaction in the chat (contract 7.3): a stored entry becomes a card at its place and nothing
// else that lists messages trips on it; the live event shows the same card once; the card's words;
// the edit's checks; the route refusals in words; and the Long sessions settings as typed.
import assert from "node:assert/strict";
import type { Message } from "../../../src/shared/chats";
import type { StreamEvent } from "../../../src/shared/stream-events";
import { ApiError } from "../../../webview/src/lib/api/client";
import {
  asSentence,
  compactedMessage,
  compactionFailure,
  compactionFigures,
  compactionFromEvent,
  compactionFromMessage,
  compactionHeadline,
  isLongSummary,
  summaryProblem,
} from "../../../webview/src/lib/compaction";
import { lastFailure, withoutRetried } from "../../../webview/src/lib/failed-turns";
import { emptyTurn, liveCompactionIds, reduceTurn } from "../../../webview/src/lib/live-turn";
import {
  CONTEXT_WINDOW,
  KEEP_RECENT,
  readModelId,
  readThresholdPercent,
  readTokens,
  thresholdText,
} from "../../../webview/src/lib/long-session-settings";
import { transcriptItems } from "../../../webview/src/lib/transcript";
import { messageFactory } from "../../helpers/stored-messages";

const message = messageFactory();

const summaryMeta = {
  reason: "manual",
  tokensBefore: 41_200,
  tokensAfter: 9_800,
  prunedOutputs: 12,
  pruned: [],
  through: "m2",
  model: "fake/tools",
};
const entry = (content = "## Task\nneedle: the owl is named Ada", meta: Record<string, unknown> = summaryMeta) =>
  message("compaction", content, meta as Message["meta"]);

describe("compaction in the chat", () => {
  it("shows a stored entry as a card at its place, and a Revert still after its own turn", () => {
    const compaction = entry();
    const items = transcriptItems([
      message("user", "hi"),
      message("assistant", "", { turnId: "t1", toolCalls: [{ id: "c1", name: "file", arguments: '{"path":"x"}' }] }),
      message("tool", "ok", { turnId: "t1", callId: "c1", name: "file", ok: true, diff: "--- a/x\n+++ b/x\n" }),
      compaction,
      message("user", "next"),
    ]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ["user", "tool", "revert", "compaction", "user"],
    );
    const card = items[3] as Extract<(typeof items)[number], { kind: "compaction" }>;
    assert.equal(card.key, compaction.id);
    assert.deepEqual(card.compaction, {
      id: compaction.id,
      reason: "manual",
      tokensBefore: 41_200,
      tokensAfter: 9_800,
      prunedOutputs: 12,
      summary: "## Task\nneedle: the owl is named Ada",
      editable: true,
      edited: false,
      model: "fake/tools",
    });
  });

  it("puts a compaction a turn made before its step's answer, where the live turn showed it", () => {
    const user = message("user", "long: 2 1");
    const step1 = message("assistant", "Step 1 of 2.", {
      turnId: "t1",
      toolCalls: [{ id: "c1", name: "file", arguments: '{"path":"a"}' }],
    });
    const out1 = message("tool", "line 1", { turnId: "t1", callId: "c1", name: "file", ok: true });
    // The server stores step 2's row when the step begins, then the compaction its request waited for.
    const step2 = message("assistant", "Step 2 of 2.", {
      turnId: "t1",
      toolCalls: [{ id: "c2", name: "file", arguments: '{"path":"a"}' }],
    });
    const auto = entry("needle: kept", { ...summaryMeta, reason: "auto" });
    const overflow = entry("needle: kept", { ...summaryMeta, reason: "overflow" });
    const out2 = message("tool", "line 2", { turnId: "t1", callId: "c2", name: "file", ok: true });
    const done = message("assistant", "Done.", { turnId: "t1" });
    const manual = entry();
    const items = transcriptItems([user, step1, out1, step2, auto, overflow, out2, done, manual]);
    assert.deepEqual(
      items.map((i) => (i.kind === "compaction" ? `compaction ${i.compaction.reason}` : i.kind)),
      [
        "user",
        "assistant",
        "tool",
        "compaction auto",
        "compaction overflow",
        "assistant",
        "tool",
        "assistant",
        "compaction manual",
      ],
    );
  });

  it("offers no Edit for an entry that only pruned, and still shows a damaged entry", () => {
    const pruned = compactionFromMessage(entry("", { ...summaryMeta, through: undefined, reason: "auto" }));
    assert.equal(pruned.editable, false);
    assert.equal(pruned.summary, "");
    const damaged = compactionFromMessage(message("compaction", "text", { reason: "eager", tokensBefore: "many" }));
    assert.deepEqual(
      [damaged.reason, damaged.tokensBefore, damaged.tokensAfter, damaged.editable],
      ["auto", 0, 0, false],
    );
    assert.equal(compactionFromMessage(message("compaction", "x", null)).reason, "auto");
    assert.equal(compactionFromMessage(entry("edited", { ...summaryMeta, edited: true })).edited, true);
  });

  it("keeps a compaction that a replaced failed attempt stored, and Retry still finds the failure", () => {
    const first = message("user", "hello");
    const compaction = entry();
    const failed = message("assistant", "", { error: { message: "down", retryable: true } }, "error");
    assert.equal(lastFailure([first, compaction, failed])?.answerId, failed.id);
    const again = message("user", "hello");
    const answer = message("assistant", "You said: hello");
    assert.deepEqual(
      withoutRetried([first, compaction, failed, again, answer]).map((m) => m.id),
      [compaction.id, again.id, answer.id],
    );
    // While the same text is being sent again, too.
    assert.deepEqual(
      withoutRetried([first, compaction, failed], "hello").map((m) => m.id),
      [compaction.id],
    );
    // A manual compaction after a failed turn leaves Retry where it was.
    assert.equal(lastFailure([first, failed, entry()])?.answerId, failed.id);
  });

  it("shows the live event as a card in the order it came, once, and names it for the stored row", () => {
    const event = (data: Record<string, unknown>) => ({ event: "compaction", data }) as StreamEvent;
    const data = { id: "m_c1", reason: "auto", tokensBefore: 15_000, tokensAfter: 6_000, prunedOutputs: 3 };
    let turn = [
      { event: "turn.start", data: { turnId: "t1", messageId: "a1" } } as StreamEvent,
      { event: "text.delta", data: { text: "Reading" } } as StreamEvent,
      event({ ...data, summary: "needle: the owl is named Ada" }),
      { event: "text.delta", data: { text: "Done" } } as StreamEvent,
    ].reduce(reduceTurn, emptyTurn());
    assert.deepEqual(
      turn.parts.map((p) => p.kind),
      ["text", "compaction", "text"],
    );
    assert.equal(new Set(turn.parts.map((p) => p.key)).size, 3, "keys are unique");
    turn = reduceTurn(turn, event({ ...data, summary: "needle: the owl is named Ada" }));
    assert.equal(turn.parts.length, 3, "a replayed event adds no second card");
    assert.deepEqual([...liveCompactionIds(turn)], ["m_c1"]);
    const card = turn.parts[1] as Extract<(typeof turn.parts)[number], { kind: "compaction" }>;
    assert.deepEqual([card.compaction.editable, card.compaction.summary], [true, "needle: the owl is named Ada"]);
    assert.equal(compactionFromEvent({ ...data, reason: "auto" }).editable, false);
  });

  it("shows a failed compaction's notice like any other", () => {
    const turn = reduceTurn(emptyTurn(), {
      event: "notice",
      data: { code: "compaction_failed", message: "compaction failed, the chat is as it was: down" },
    } as StreamEvent);
    assert.equal(turn.notice, "compaction failed, the chat is as it was: down");
  });

  it("says what happened in words", () => {
    assert.equal(compactionHeadline("auto"), "Context compacted automatically");
    assert.equal(compactionHeadline("manual"), "Compacted on request");
    assert.equal(compactionHeadline("overflow"), "Compacted after the model said the conversation was too long");
    const n = (value: number) => value.toLocaleString();
    assert.equal(
      compactionFigures({ tokensBefore: 41_200, tokensAfter: 9_800, prunedOutputs: 12 }),
      `${n(41_200)} → ${n(9_800)} tokens · 12 old tool outputs pruned`,
    );
    assert.equal(
      compactionFigures({ tokensBefore: 500, tokensAfter: 200, prunedOutputs: 1 }),
      "500 → 200 tokens · 1 old tool output pruned",
    );
    assert.equal(compactionFigures({ tokensBefore: 500, tokensAfter: 200, prunedOutputs: 0 }), "500 → 200 tokens");
    assert.equal(compactedMessage({ tokensBefore: 900, tokensAfter: 300 }), "Compacted: 900 → 300 tokens.");
  });

  it("collapses a long summary, by characters or by lines", () => {
    assert.equal(isLongSummary("short"), false);
    assert.equal(isLongSummary("x".repeat(601)), true);
    assert.equal(isLongSummary("line\n".repeat(9)), true);
  });

  it("checks an edited summary before sending it", () => {
    assert.match(summaryProblem("   ")!, /^The summary is empty/);
    assert.match(summaryProblem("x".repeat(100_001))!, /^The summary is too long: at most 100,000 characters/);
    assert.equal(summaryProblem("fine"), undefined);
  });

  it("says a refusal in words: 413 as too long, the server's message as a sentence", () => {
    assert.match(compactionFailure(new ApiError(413, "payload_too_large", "request entity too large")), /too long/);
    assert.equal(
      compactionFailure(new ApiError(409, "conflict", "nothing to compact yet: the conversation has no older part")),
      "Nothing to compact yet: the conversation has no older part.",
    );
    assert.equal(
      compactionFailure(new ApiError(502, "upstream_error", "compaction failed, the chat is as it was: down")),
      "Compaction failed, the chat is as it was: down.",
    );
    assert.match(compactionFailure(new TypeError("Failed to fetch")), /^The server could not be reached/);
    assert.equal(asSentence("done!"), "Done!");
    assert.equal(asSentence(""), "");
  });
});

describe("Long sessions settings as typed", () => {
  it("reads Compact at as a percentage from 50 to 95", () => {
    assert.deepEqual(readThresholdPercent("70"), { ok: true, value: 0.7 });
    assert.deepEqual(readThresholdPercent(" 55 % "), { ok: true, value: 0.55 });
    assert.deepEqual(readThresholdPercent("72.5"), { ok: true, value: 0.725 });
    assert.deepEqual(readThresholdPercent(""), { ok: true, value: null });
    for (const bad of ["30", "96", "0.8", "eighty", "-70"]) {
      const read = readThresholdPercent(bad);
      assert.equal(read.ok, false, bad);
    }
    assert.match((readThresholdPercent("30") as { message: string }).message, /From 50% to 95%/);
    assert.equal(thresholdText(0.7), "70");
    assert.equal(thresholdText(0.725), "72.5");
    assert.equal(thresholdText(undefined), "");
  });

  it("reads token counts with separators and k or M", () => {
    assert.deepEqual(readTokens("20,000", KEEP_RECENT), { ok: true, value: 20_000 });
    assert.deepEqual(readTokens("0", KEEP_RECENT), { ok: true, value: 0 });
    assert.deepEqual(readTokens("1.15k", KEEP_RECENT), { ok: true, value: 1_150 });
    assert.deepEqual(readTokens("1M", CONTEXT_WINDOW), { ok: true, value: 1_000_000 });
    assert.deepEqual(readTokens("", CONTEXT_WINDOW), { ok: true, value: null });
    assert.equal(readTokens("999", CONTEXT_WINDOW).ok, false);
    assert.equal(readTokens("200M", CONTEXT_WINDOW).ok, false);
    assert.equal(readTokens("1.5", KEEP_RECENT).ok, false);
    assert.equal(readTokens("lots", KEEP_RECENT).ok, false);
    assert.match((readTokens("999", CONTEXT_WINDOW) as { message: string }).message, /^From 1,000 to 100,000,000/);
  });

  it("reads the compaction model, empty for the chat's own", () => {
    assert.deepEqual(readModelId(" fake/tools "), { ok: true, value: "fake/tools" });
    assert.deepEqual(readModelId(""), { ok: true, value: null });
    assert.equal(readModelId("x".repeat(201)).ok, false);
  });
});
