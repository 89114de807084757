import assert from "node:assert/strict";
import fc from "fast-check";
import { statusOf } from "../../../src/worktrees/board";
import { messageStatusSchema, type Message, type MessageStatus } from "../../../src/shared/chats";

function message(role: Message["role"], status: MessageStatus, meta: Message["meta"] = null): Message {
  return {
    id: `m_${role}_${status}`,
    chatId: "c_1",
    seq: 1,
    role,
    content: "",
    status,
    modelId: "fake/tools",
    usage: null,
    meta,
    parentId: null,
    createdAt: "2026-01-01T00:00:00.000Z",
  };
}

const withCalls = (status: MessageStatus) =>
  message("assistant", status, { toolCalls: [{ id: "call_1", name: "shell", arguments: "{}" }] });
const statuses = messageStatusSchema.options;

describe("the board's status of a worktree chat", () => {
  it("is new before any answer, running during a turn, done after one, failed after an error or a crash", () => {
    assert.equal(statusOf(false, 0, undefined), "new");
    assert.equal(statusOf(true, 0, undefined), "running");
    assert.equal(statusOf(false, 0, message("assistant", "complete")), "done");
    assert.equal(statusOf(false, 0, message("assistant", "truncated")), "done");
    assert.equal(statusOf(false, 0, message("assistant", "cancelled")), "done");
    assert.equal(statusOf(false, 0, message("assistant", "error")), "failed");
    assert.equal(statusOf(false, 0, message("assistant", "interrupted")), "failed");
  });

  it("is failed when the path ends at tool calls nothing answered (Parley died while they ran)", () => {
    const step = withCalls("complete");
    assert.equal(statusOf(false, 0, step, step), "failed");
    // Answered (the turn went on, or was cancelled, which answers each call): the last answer decides.
    assert.equal(statusOf(false, 0, step, message("tool", "complete")), "done");
    // Running: the calls are being answered right now.
    assert.equal(statusOf(true, 0, step, step), "running");
  });

  it("is waiting whenever something waits for the user, whatever else holds (property)", () => {
    const maybeMessage = fc.option(
      fc
        .tuple(fc.constantFrom(...statuses), fc.boolean())
        .map(([s, calls]) => (calls ? withCalls(s) : message("assistant", s))),
      { nil: undefined },
    );
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.integer({ min: 1, max: 5 }),
        maybeMessage,
        fc.boolean(),
        (active, waiting, last, atEnd) => {
          assert.equal(statusOf(active, waiting, last, atEnd ? last : undefined), "waiting");
        },
      ),
    );
  });

  it("is running during a turn with nothing waiting, and otherwise never running or waiting (property)", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.constantFrom(...statuses), fc.boolean(), (active, status, calls) => {
        const last = calls ? withCalls(status) : message("assistant", status);
        const result = statusOf(active, 0, last, last);
        if (active) assert.equal(result, "running");
        else {
          const failed = calls || status === "error" || status === "interrupted";
          assert.equal(result, failed ? "failed" : "done", `${status}, calls: ${calls}`);
        }
      }),
    );
  });
});
