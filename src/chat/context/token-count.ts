// Token counts for the context meter and for compaction (contract 7.3), with gpt-tokenizer's
// o200k_base encoding: a maintained, pure-JavaScript BPE (no native part, no WASM, nothing to
// download at run time) that counts a 100k-token text in a few tens of milliseconds. o200k is
// OpenAI's current encoding; other vendors' tokenizers are not public or not in JavaScript, so for
// them it is an estimate, which each step's upstream `prompt_tokens` then corrects (see
// ContextCalibration). Texts are counted once: a session re-sends the same history every step.
import { lazyModule } from "../../platform/lazy-module";

/** Loading the encoding's tables takes a quarter of a second: off the start-up path, warmed after listen. */
export const loadTokenizer = lazyModule(async () => {
  const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
  return countTokens;
});

/** What every chat message costs besides its content (role and separators, as OpenAI's formats count them). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Texts shorter than this are counted afresh each time: a lookup would cost about as much. */
const MEMO_MIN_CHARS = 64;
/**
 * Texts remembered, and their characters at most: a 10,000-message chat (about 6 MB of text) is
 * counted once, not again on every request because its older messages fell out of a small memo.
 */
const MEMO_MAX_ENTRIES = 50_000;
const MEMO_MAX_CHARS = 32 * 1024 * 1024;

/** What each tool definition costs besides its name, description and schema (its JSON framing). */
export const TOOL_OVERHEAD_TOKENS = 10;

export class TokenCounter {
  /** Most recently used last, so the oldest entries go first. */
  private readonly memo = new Map<string, number>();
  private memoChars = 0;
  /** Tool schemas by identity: a server's schema object lives as long as its tool list. */
  private readonly schemas = new WeakMap<object, number>();
  /**
   * Whole tool definitions by their schema object, with the name and description they were counted
   * with: a turn's tool list is built afresh, but its schemas are the same objects turn after turn,
   * so a known tool costs a lookup and two string compares, not a tokenizer pass over its name.
   */
  private readonly tools = new WeakMap<object, { name: string; description: string; tokens: number }>();

  constructor(private readonly encode: (text: string) => number) {}

  /** The process's one counter: its memory of counted texts is what makes a session's steps cheap. */
  static load(): Promise<TokenCounter> {
    return sharedCounter();
  }

  /** The shared counter if it has loaded (it loads in the background at start-up): a turn need not wait. */
  static loaded(): TokenCounter | undefined {
    return loadedCounter;
  }

  count(text: string): number {
    if (text.length === 0) return 0;
    if (text.length < MEMO_MIN_CHARS) return this.encode(text);
    const known = this.memo.get(text);
    if (known !== undefined) {
      this.memo.delete(text);
      this.memo.set(text, known);
      return known;
    }
    const counted = this.encode(text);
    this.memo.set(text, counted);
    this.memoChars += text.length;
    while (this.memo.size > MEMO_MAX_ENTRIES || this.memoChars > MEMO_MAX_CHARS) {
      const oldest = this.memo.keys().next().value!;
      this.memo.delete(oldest);
      this.memoChars -= oldest.length;
    }
    return counted;
  }

  /**
   * The tool definitions of a request (`{type, function: {name, description, parameters}}`): each
   * schema object is serialised and counted once for as long as it lives, so a turn with 80 MCP
   * tools does not serialise them all again for the meter.
   */
  countTools(tools: readonly unknown[]): number {
    let sum = 0;
    for (const tool of tools) {
      const fn = (tool as { function?: { name?: unknown; description?: unknown; parameters?: unknown } }).function;
      if (!fn || typeof fn.name !== "string") {
        sum += this.count(JSON.stringify(tool) ?? "");
        continue;
      }
      const description = typeof fn.description === "string" ? fn.description : "";
      const schema = typeof fn.parameters === "object" && fn.parameters !== null ? fn.parameters : undefined;
      const known = schema && this.tools.get(schema);
      if (known && known.name === fn.name && known.description === description) {
        sum += known.tokens;
        continue;
      }
      const tokens =
        TOOL_OVERHEAD_TOKENS + this.count(fn.name) + this.count(description) + this.countSchema(fn.parameters);
      if (schema) this.tools.set(schema, { name: fn.name, description, tokens });
      sum += tokens;
    }
    return sum;
  }

  private countSchema(schema: unknown): number {
    if (schema === undefined) return 0;
    if (typeof schema !== "object" || schema === null) return this.count(JSON.stringify(schema));
    let known = this.schemas.get(schema);
    if (known === undefined) {
      known = this.encode(JSON.stringify(schema));
      this.schemas.set(schema, known);
    }
    return known;
  }

  /** A chat message's tokens: its text (or JSON for structured content and tool calls) plus the overhead. */
  countMessage(message: { content: unknown; tool_calls?: unknown }): number {
    const content =
      typeof message.content === "string"
        ? message.content
        : message.content == null
          ? ""
          : JSON.stringify(message.content);
    const calls = message.tool_calls === undefined ? "" : JSON.stringify(message.tool_calls);
    return MESSAGE_OVERHEAD_TOKENS + this.count(content) + (calls ? this.count(calls) : 0);
  }
}

let loadedCounter: TokenCounter | undefined;
const sharedCounter = lazyModule(async () => (loadedCounter = new TokenCounter(await loadTokenizer())));
