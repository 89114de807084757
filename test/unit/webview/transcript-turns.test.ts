// The per-message actions the transcript offers (contract 7.4): a user message's versions, and the
// end of each turn the user asked for (its answer's versions, the id Retry and "Fork from here" use).
import assert from "node:assert/strict";
import type { Message } from "../../../src/shared/chats";
import { itemKeyOf, transcriptItems } from "../../../webview/src/lib/transcript";
import { messageFactory } from "../../helpers/stored-messages";

const message = messageFactory();
const withTurn = (m: Message, turnId: string, extra: Message["meta"] = {}): Message => ({
  ...m,
  meta: { ...m.meta, ...extra, turnId },
});

describe("transcript: versions and turn ends", () => {
  const file = message("user", "contents of a.ts", { kind: "file", path: "a.ts" });
  const question = { ...message("user", "Why?"), siblings: ["m0", "m1"], siblingIndex: 1 };
  const step = withTurn(message("assistant", "", null), "t1", {
    toolCalls: [{ id: "c1", name: "shell", arguments: "{}" }],
  });
  const result = withTurn(message("tool", "ok", { callId: "c1", name: "shell", ok: true }), "t1");
  const answer = withTurn({ ...message("assistant", "Because."), usage: null }, "t1");
  const direct = withTurn(message("assistant", "From a direct run"), "t2");
  // The versions of an edit sit on the turn's first row: its first file.
  const items = transcriptItems([
    { ...file, siblings: ["m0", file.id], siblingIndex: 1 },
    question,
    step,
    result,
    answer,
    direct,
  ]);

  it("gives a user message the versions of its turn's first row (the first file it referenced)", () => {
    const user = items.find((item) => item.kind === "user");
    assert.deepEqual(user?.kind === "user" && user.versions, { ids: ["m0", file.id], index: 1 });
  });

  it("marks the last answer of a turn the user asked for, with the versions of the turn's first answer", () => {
    const answers = items.filter((item) => item.kind === "assistant");
    const ends = answers.map((item) => (item.kind === "assistant" ? item.turnEnd : undefined));
    assert.deepEqual(ends, [{ answerId: answer.id, versions: undefined }, undefined], "a direct run gets none");
  });

  it("finds the item that shows a linked message: its own, its call's card, or the message a file went with", () => {
    const messages = [file, question, step, result, answer, direct];
    assert.equal(itemKeyOf(items, messages, question.id), question.id);
    assert.equal(itemKeyOf(items, messages, result.id), "tool-c1");
    assert.equal(itemKeyOf(items, messages, step.id), "tool-c1", "a step that only called tools");
    assert.equal(itemKeyOf(items, messages, file.id), question.id);
    assert.equal(itemKeyOf(items, messages, "m-unknown"), undefined);
  });

  it("says a reverted turn's Revert was done", () => {
    const wrote = withTurn(message("assistant", "", null), "t3", {
      toolCalls: [{ id: "c2", name: "file", arguments: JSON.stringify({ operation: "write", path: "x.txt" }) }],
    });
    const written = withTurn(
      message("tool", JSON.stringify({ path: "x.txt" }), {
        callId: "c2",
        name: "file",
        ok: true,
        reverted: true,
        diff: "+hi",
      }),
      "t3",
    );
    const revert = transcriptItems([message("user", "write it"), wrote, written]).find((i) => i.kind === "revert");
    assert.equal(revert?.kind === "revert" && revert.reverted, true);
  });
});
