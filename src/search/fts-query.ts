// The user's words as an FTS5 query that means exactly those words, never FTS5 syntax. Pure.
//
// Each word becomes a quoted string (`"` doubled inside), so `AND`, `NEAR(`, `*`, `-`, `:`, `^` and
// quotes are searched as text and cannot make the query invalid. Words are ANDed (FTS5's implicit
// operator). The last word is a prefix (`"wor"*`), so results come while it is still being typed.

/** Past this many words the rest are dropped: each word is one more list of matches to merge. */
export const MAX_QUERY_WORDS = 32;

/**
 * Runs of what the tokenizer (unicode61) keeps: letters, numbers, private-use characters (and the
 * marks of accented letters, which it folds away). Anything else separates tokens.
 */
export const TOKEN = /[\p{L}\p{N}\p{Co}\p{M}]+/gu;

/**
 * A one-character prefix is left exact: it would expand to a large share of the vocabulary (every
 * word starting with "s"), costing more than the whole rest of a search and meaning little.
 */
const MIN_PREFIX_CHARS = 2;

/** The words searched for, and whether the last one's last token is a prefix. */
export type SearchWords = { words: string[]; prefix: boolean };

/** The searchable words of `text`, or undefined when there is none (blank, or punctuation only). */
export function searchWords(text: string): SearchWords | undefined {
  // Control characters separate tokens anyway, and FTS5 reads a NUL as the end of the query: a word
  // holding one would leave its quote unterminated (a SQLite error, not a search).
  const words = text
    .replace(/\p{Cc}/gu, " ")
    .split(/\s+/u)
    .filter((word) => word.match(TOKEN) !== null)
    .slice(0, MAX_QUERY_WORDS);
  if (words.length === 0) return undefined;
  // The prefix applies to the last token of the last word ("a-bc" → "bc").
  const lastToken = words.at(-1)!.match(TOKEN)!.at(-1)!;
  return { words, prefix: [...lastToken].length >= MIN_PREFIX_CHARS };
}

/** The FTS5 MATCH expression for the words. */
export function ftsMatch({ words, prefix }: SearchWords): string {
  const quoted = words.map((word) => `"${word.replaceAll('"', '""')}"`);
  if (prefix) quoted[quoted.length - 1] += "*";
  return quoted.join(" ");
}

/** The FTS5 query for `text`, or undefined when nothing in it is searchable. */
export function ftsQuery(text: string): string | undefined {
  const words = searchWords(text);
  return words && ftsMatch(words);
}
