// How a turn's end is stored: a `length` finish is an answer cut off at the token limit, which the
// user must be able to tell from a complete one. Pure.
import type { MessageStatus } from "../shared/chats";

export function messageStatusFor(finishReason: string, failed: boolean): MessageStatus {
  if (finishReason === "cancelled") return "cancelled";
  if (failed) return "error";
  if (finishReason === "length") return "truncated";
  return "complete";
}
