// Stored transcript messages for the webview's unit tests: each factory numbers its own (m1, m2, …),
// so a test file can name the ids it made.
import type { Message } from "../../src/shared/chats";

export function messageFactory() {
  let seq = 0;
  return function message(
    role: Message["role"],
    content: string,
    meta: Message["meta"] = null,
    status: Message["status"] = "complete",
  ): Message {
    seq++;
    return {
      id: `m${seq}`,
      chatId: "c",
      seq,
      role,
      content,
      status,
      modelId: null,
      usage: null,
      meta,
      parentId: seq > 1 ? `m${seq - 1}` : null,
      createdAt: "2025-01-01T00:00:00Z",
    };
  };
}
