// The stored transcript as the upstream messages of the next request (OpenAI chat format): user and
// assistant text, and each assistant step's tool calls followed by their `tool` results. Pure.
import type { Message } from "../shared/chats";

export type UpstreamMessage = {
  role: "system" | "user" | "assistant" | "tool";
  content: unknown;
  [key: string]: unknown;
};

type Call = { id: string; name: string; arguments: string };

/** What the transcript reads of a message: a stored one, or one about to be stored. */
export type TranscriptRow = Pick<Message, "role" | "content" | "status"> & { meta?: Message["meta"] };

/** An assistant message that called tools; `content` is null when the step said nothing. */
export function assistantWithCalls(text: string, calls: readonly Call[]): UpstreamMessage {
  return {
    role: "assistant",
    content: text || null,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments || "{}" },
    })),
  };
}

/** A turn that failed before any answer: nothing of it reached the model, and Retry sends it again. */
function failedBeforeAnswer(next: TranscriptRow | undefined): boolean {
  return next?.role === "assistant" && next.status === "error" && !next.content && !next.meta?.toolCalls?.length;
}

/** `sent`, when given, hears which row each returned message came from, in order (the context meter's layers). */
export function transcriptMessages(
  messages: readonly TranscriptRow[],
  sent?: (row: TranscriptRow) => void,
): UpstreamMessage[] {
  const answered = new Set(messages.filter((m) => m.role === "tool" && m.meta?.callId).map((m) => m.meta!.callId!));
  const out: UpstreamMessage[] = [];
  for (const [index, message] of messages.entries()) {
    // A message whose turn failed before any answer is left out (Retry stores it again).
    if (message.role === "user" && failedBeforeAnswer(messages[index + 1])) continue;
    // A subagent's own tool calls stay inside its card: the model that called it sees only its answer.
    if (message.meta?.parentCallId) continue;
    const before = out.length;
    if (message.role === "user") out.push({ role: "user", content: message.content });
    else if (message.role === "assistant") {
      const calls = (message.meta?.toolCalls ?? []).filter((call) => answered.has(call.id));
      if (calls.length > 0) out.push(assistantWithCalls(message.content, calls));
      else if (message.content) out.push({ role: "assistant", content: message.content });
    } else if (message.role === "tool" && message.meta?.callId) {
      out.push({ role: "tool", tool_call_id: message.meta.callId, content: message.content });
    }
    if (sent && out.length > before) sent(message);
  }
  return out;
}
