import assert from "node:assert/strict";
import { transcriptMessages } from "../../../src/chat/transcript";
import type { Message } from "../../../src/shared/chats";

const message = (seq: number, role: Message["role"], content: string, extra: Partial<Message> = {}): Message => ({
  id: `m${seq}`,
  chatId: "c",
  seq,
  role,
  content,
  status: "complete",
  modelId: null,
  usage: null,
  meta: null,
  parentId: null,
  createdAt: "",
  ...extra,
});

describe("transcript for the next request", () => {
  it("leaves out a message whose turn failed before any answer, so a retry is sent once", () => {
    const out = transcriptMessages([
      message(1, "user", "hello"),
      message(2, "assistant", "", { status: "error", meta: { error: { message: "unreachable", retryable: true } } }),
      message(3, "user", "hello"),
      message(4, "assistant", "hi there"),
    ]);
    assert.deepEqual(out, [
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi there" },
    ]);
  });

  it("keeps a message whose answer failed after it began, and pairs tool calls with their results", () => {
    const out = transcriptMessages([
      message(1, "user", "go"),
      message(2, "assistant", "", {
        meta: {
          toolCalls: [
            { id: "a", name: "shell", arguments: "{}" },
            { id: "b", name: "shell", arguments: "{}" },
          ],
        },
      }),
      message(3, "tool", "ok", { meta: { callId: "a", name: "shell", ok: true } }),
      message(4, "tool", "inner", { meta: { callId: "x", name: "shell", ok: true, parentCallId: "a" } }),
      message(5, "assistant", "partial", { status: "error" }),
    ]);
    assert.deepEqual(
      out.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(
      (out[1] as any).tool_calls.map((c: any) => c.id),
      ["a"],
      "an unanswered call is dropped",
    );
  });
});
