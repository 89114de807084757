// Prompt caching as the hosted gateway's vendors do it, simulated per gateway instance.
// - `anthropic/*` and `google/gemini*` cache only behind explicit marks: a content part carrying
//   `cache_control` ends a cacheable prefix. A request reads the longest marked prefix some earlier
//   request cached (`cached_tokens`) and writes what lies between it and its last mark
//   (`cache_write_tokens`, billed at 125%). An unmarked request caches nothing.
// - Every other model caches on its own: the longest prefix, in whole messages, shared with an
//   earlier request of the same model counts as cached, once it reaches 1024 tokens (as OpenAI does).
// A prefix is its content, not its JSON spelling: the tools, then each message with its text as
// parts (a string is one text part) and without the marks, so moving a mark or turning a string
// into a part keeps a hit, and any other byte changed misses. Unlike the vendors, nothing expires
// (no 5-minute TTL) and there is no minimum behind a mark; the entries are bounded, oldest out first.
import { createHash } from "node:crypto";
import { MESSAGE_OVERHEAD_TOKENS, tokensOf, type WireMessage } from "./tokens";

/** Vendors whose cache works only behind `cache_control` marks. */
export function needsExplicitMarks(modelId: string): boolean {
  return /^anthropic\//.test(modelId) || /^google\/gemini/.test(modelId);
}

/** The least prefix an automatic cache keeps (OpenAI's threshold). */
export const AUTOMATIC_MIN_TOKENS = 1024;
export const CACHE_MAX_ENTRIES = 50_000;

export type CacheOutcome = { cachedTokens: number; cacheWriteTokens: number };

type Part = Record<string, unknown>;

const parts = (content: unknown): Part[] =>
  typeof content === "string"
    ? [{ type: "text", text: content }]
    : Array.isArray(content)
      ? (content as Part[]).map((p) => (p && typeof p === "object" ? p : { value: p }))
      : [];

const unmarked = (part: Part): Part => {
  const { cache_control: _mark, ...rest } = part;
  return rest;
};

/** A message as the cache keys it: content as parts, marks left out, other fields as sent. */
function canonical(message: WireMessage, partCount?: number): string {
  const all = parts(message.content).map(unmarked);
  const kept = partCount === undefined ? all : all.slice(0, partCount);
  const { content: _content, ...fields } = message;
  // A message cut inside its content ends there: its tool calls come after the content.
  const rest = partCount === undefined ? fields : { role: message.role };
  return JSON.stringify({ ...rest, content: kept });
}

const chain = (previous: string, next: string) =>
  createHash("sha256").update(previous).update("\n").update(next).digest("base64");

export class PromptCache {
  private readonly entries = new Map<string, true>();

  constructor(private readonly maxEntries = CACHE_MAX_ENTRIES) {}

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }

  /**
   * What of this request the cache serves and what it stores. `perMessage` and `toolTokens` are the
   * request's own counts (tokens.ts), so cached tokens add up with `prompt_tokens`.
   */
  lookup(
    modelId: string,
    messages: readonly WireMessage[],
    tools: unknown,
    toolTokens: number,
    perMessage: readonly number[],
  ): CacheOutcome {
    const toolsJson = Array.isArray(tools) && tools.length > 0 ? JSON.stringify(tools) : "";
    const root = chain(modelId, toolsJson);
    const full: string[] = [];
    let previous = root;
    for (const message of messages) full.push((previous = chain(previous, canonical(message))));
    const before = (i: number) => toolTokens + perMessage.slice(0, i).reduce((a, b) => a + b, 0);
    return needsExplicitMarks(modelId) ? this.explicit(messages, full, root, before) : this.automatic(full, before);
  }

  private automatic(full: string[], before: (i: number) => number): CacheOutcome {
    let hit = -1;
    for (let i = full.length - 1; i >= 0; i--)
      if (this.entries.has(full[i]!)) {
        hit = i;
        break;
      }
    for (const key of full) this.remember(key);
    const cached = hit >= 0 ? before(hit + 1) : 0;
    return { cachedTokens: cached >= AUTOMATIC_MIN_TOKENS ? cached : 0, cacheWriteTokens: 0 };
  }

  private explicit(
    messages: readonly WireMessage[],
    full: string[],
    root: string,
    before: (i: number) => number,
  ): CacheOutcome {
    const marks: { key: string; tokens: number }[] = [];
    messages.forEach((message, i) => {
      const list = parts(message.content);
      list.forEach((part, j) => {
        if (!part.cache_control) return;
        if (j === list.length - 1) {
          marks.push({ key: full[i]!, tokens: before(i + 1) });
          return;
        }
        const text = list
          .slice(0, j + 1)
          .map((p) => (typeof p.text === "string" ? p.text : ""))
          .join("");
        const key = chain(i === 0 ? root : full[i - 1]!, canonical(message, j + 1));
        marks.push({ key, tokens: before(i) + MESSAGE_OVERHEAD_TOKENS + tokensOf(text) });
      });
    });
    if (marks.length === 0) return { cachedTokens: 0, cacheWriteTokens: 0 };
    const hit = [...marks].reverse().find((mark) => this.entries.has(mark.key));
    const cached = hit?.tokens ?? 0;
    const lastMark = marks.at(-1)!;
    const written = this.entries.has(lastMark.key) ? 0 : Math.max(0, lastMark.tokens - cached);
    for (const mark of marks) this.remember(mark.key);
    return { cachedTokens: cached, cacheWriteTokens: written };
  }

  private remember(key: string): void {
    this.entries.delete(key);
    this.entries.set(key, true);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
