// Prompt caching (contract 7.3, settings `chat.promptCaching`). Anthropic and Gemini models behind
// the gateway cache only up to explicit `cache_control` breakpoints; every other vendor caches a
// repeated prefix on its own. So for the first kind the request marks the end of its system messages
// and the end of the conversation so far (the next step re-sends all of it and reads it from the
// cache); for every model the prefix must stay byte-stable from one step to the next, which the
// caller guarantees (same system text, tools in the same order, nothing per request). Pure.
import type { UpstreamMessage } from "../transcript";

/** The most breakpoints a request may carry (Anthropic's limit). */
export const MAX_CACHE_MARKS = 4;

export function needsCacheMarks(modelId: string): boolean {
  return /^anthropic\//.test(modelId) || /^google\/gemini/.test(modelId);
}

const EPHEMERAL = { type: "ephemeral" } as const;

/** The message with its text as one part carrying the mark (a message already in parts: its last part). */
function marked(message: UpstreamMessage): UpstreamMessage {
  if (typeof message.content === "string") {
    if (message.content === "") return message;
    return { ...message, content: [{ type: "text", text: message.content, cache_control: EPHEMERAL }] };
  }
  if (Array.isArray(message.content) && message.content.length > 0) {
    const parts = [...(message.content as Record<string, unknown>[])];
    parts[parts.length - 1] = { ...parts.at(-1), cache_control: EPHEMERAL };
    return { ...message, content: parts };
  }
  return message; // an assistant step with tool calls and no text: nothing to mark
}

/**
 * The messages as sent to `modelId`: unchanged where the vendor caches by itself; else with marks on
 * the last system message, and on the last markable messages of the conversation (the newest one, and
 * the one the previous request ended with), at most MAX_CACHE_MARKS in all.
 */
export function withCacheMarks(modelId: string, messages: readonly UpstreamMessage[]): UpstreamMessage[] {
  if (!needsCacheMarks(modelId)) return [...messages];
  const out = [...messages];
  const at = new Set<number>();
  let lastSystem = -1;
  for (let i = 0; i < out.length && out[i]!.role === "system"; i++) lastSystem = i;
  if (lastSystem >= 0) at.add(lastSystem);
  // From the end: the newest markable messages past the system messages (tool results included).
  for (let i = out.length - 1; i > lastSystem && at.size < MAX_CACHE_MARKS; i--) {
    if (marked(out[i]!) !== out[i]) at.add(i);
  }
  for (const i of at) out[i] = marked(out[i]!);
  return out;
}
