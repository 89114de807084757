// The fake's token counts, as a hosted gateway reports them: a real tokenizer (gpt-tokenizer's
// o200k_base) over what the model reads of each message (its text, the text of its content parts,
// its tool calls' names and arguments) plus 4 tokens of framing per message, and the tool
// definitions as JSON. Counts are memoized by text, since a session re-sends its history every step.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

export type WireMessage = { role: string; content: unknown; [key: string]: unknown };

/** What every message costs besides its text (role and separators, as OpenAI's formats count them). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

const MEMO_MIN_CHARS = 64;
const MEMO_MAX_ENTRIES = 8_192;
const MEMO_MAX_CHARS = 64 * 1024 * 1024;
const memo = new Map<string, number>();
let memoChars = 0;

/** Tokens of one text, o200k_base. */
export function tokensOf(text: string): number {
  if (text.length === 0) return 0;
  if (text.length < MEMO_MIN_CHARS) return countTokens(text);
  const known = memo.get(text);
  if (known !== undefined) return known;
  const counted = countTokens(text);
  memo.set(text, counted);
  memoChars += text.length;
  while (memo.size > MEMO_MAX_ENTRIES || memoChars > MEMO_MAX_CHARS) {
    const oldest = memo.keys().next().value!;
    memo.delete(oldest);
    memoChars -= oldest.length;
  }
  return counted;
}

/** A message's readable text: string content, or the `text` of its content parts, joined. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof (part as { text?: unknown }).text === "string" ? (part as { text: string }).text : "",
    )
    .join("");
}

/** The names and arguments of an assistant message's tool calls, as the model reads them. */
export function toolCallTexts(message: WireMessage): string[] {
  const calls = Array.isArray(message.tool_calls)
    ? (message.tool_calls as { function?: Record<string, unknown> }[])
    : [];
  return calls.flatMap((call) => [String(call?.function?.name ?? ""), String(call?.function?.arguments ?? "")]);
}

/** Tokens of one message: its text, its tool calls, and the framing. */
export function messageTokens(message: WireMessage): number {
  const calls = toolCallTexts(message).reduce((sum, text) => sum + tokensOf(text), 0);
  return MESSAGE_OVERHEAD_TOKENS + tokensOf(contentText(message.content)) + calls;
}

/** Tokens of the tool definitions (their JSON, as sent), 0 without tools. */
export function toolsTokens(tools: unknown): number {
  return Array.isArray(tools) && tools.length > 0 ? tokensOf(JSON.stringify(tools)) : 0;
}

/** The prompt's tokens: the tools, then each message; `perMessage[i]` is message i's share. */
export function promptTokens(
  messages: readonly WireMessage[],
  tools: unknown,
): { total: number; tools: number; perMessage: number[] } {
  const toolShare = toolsTokens(tools);
  const perMessage = messages.map(messageTokens);
  return { total: toolShare + perMessage.reduce((a, b) => a + b, 0), tools: toolShare, perMessage };
}
