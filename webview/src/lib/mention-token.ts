// The `@` token under the composer's caret (spec, composer rules 1 and 16): where it starts, where it
// ends (through the characters after the caret, so a selection replaces all of it) and the query.
// Pure, so the popup and its tests read the text the same way.

export type MentionToken = {
  /** Index of the `@`. */
  start: number;
  /** End of the token: the first whitespace (or closing bracket or quote) at or after the caret, or the end of the text. */
  end: number;
  /** What was typed between the `@` and the caret: the search. */
  query: string;
};

const SPACE = /\s/;
/** Characters that may stand right before an `@` that opens a mention: an `@` inside a word (an e-mail address) does not. */
const OPENERS = new Set(["(", "[", "{", '"', "'", "`", "<"]);
/** A closing bracket or quote after the caret belongs to the sentence, not to the token. */
const CLOSERS = new Set([")", "]", "}", '"', "'", "`", ">"]);

/**
 * The `@` token the caret is in, or undefined. The `@` starts a word (or follows an opening bracket
 * or quote); the query runs to the caret. Text already in the picker syntax of a tool's parameters
 * (`@tool:key=` plus backticks) is an argument being typed, not a mention, so it opens nothing.
 */
export function tokenAt(text: string, caret: number): MentionToken | undefined {
  if (caret < 0 || caret > text.length) return undefined;
  let wordStart = caret;
  while (wordStart > 0 && !SPACE.test(text[wordStart - 1]!)) wordStart--;
  let start = wordStart;
  while (start < caret && OPENERS.has(text[start]!) && text[start] !== "@") start++;
  if (text[start] !== "@" || start >= caret) return undefined;
  const query = text.slice(start + 1, caret);
  if (query.includes("@") || query.includes("`") || /^[^\s:]+:/.test(query)) return undefined;
  let end = caret;
  while (end < text.length && !SPACE.test(text[end]!) && !CLOSERS.has(text[end]!)) end++;
  return { start, end, query };
}
