// A search hit's snippet: a few words of the message around its first match, the matched words
// between `<mark>` and `</mark>`, every other `&`, `<` and `>` escaped (so the marks are the only
// tags), white space folded. Pure.
//
// Made here rather than by FTS5's snippet(): that runs a query of its own per hit, and a prefix
// ("sto"*) made each one expand the prefix over the whole index again, 20 hits costing 60 ms. The
// words are told apart as the index's tokenizer does (unicode61, diacritics removed, any case).
import { TOKEN, type SearchWords } from "./fts-query";

/** Words of context a snippet shows, and how many of them come before the first match. */
const SNIPPET_TOKENS = 24;
const BEFORE_MATCH = 6;

/** A token as the index compares it: without diacritics, in lower case. */
function folded(token: string): string {
  return token.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

const escapeText = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
/**
 * Text between words (punctuation, code's symbols, white space) escaped, with white space folded and
 * at most MAX_GAP characters: a long rule of `-` or `=` does not fill a snippet.
 */
const MAX_GAP = 40;
function tidy(text: string): string {
  const folded = text.replace(/\s+/gu, " ");
  return escapeText(folded.length > MAX_GAP ? `${folded.slice(0, MAX_GAP)}…` : folded);
}

/** Which of the message's tokens match: any token of the words, the last one as a prefix when it is one. */
function matcher({ words, prefix }: SearchWords): (token: string) => boolean {
  const tokens = words.flatMap((word) => (word.match(TOKEN) ?? []).map(folded));
  const start = prefix ? tokens.pop() : undefined;
  const exact = new Set(tokens);
  return (token) => {
    const text = folded(token);
    return exact.has(text) || (start !== undefined && text.startsWith(start));
  };
}

type Span = { start: number; end: number; hit: boolean };
const HAS_TOKEN = new RegExp(TOKEN.source, "u");

/** The snippet of `content` for `words`: from a few words before the first match; the start when none matches. */
export function snippetOf(content: string, words: SearchWords): string {
  const matches = matcher(words);
  const head: Span[] = [];
  const before: Span[] = [];
  let window: Span[] | undefined;
  for (const found of content.matchAll(TOKEN)) {
    const span = { start: found.index, end: found.index + found[0].length, hit: matches(found[0]) };
    if (window) window.push(span);
    else if (span.hit) window = [...before, span];
    else {
      if (head.length < SNIPPET_TOKENS) head.push(span);
      // Until the first match, only the few words that lead into it are kept.
      before.push(span);
      if (before.length > BEFORE_MATCH) before.shift();
    }
    if (window && window.length >= SNIPPET_TOKENS) break;
  }
  const shown = window ?? head;
  if (shown.length === 0) return tidy(content).trim();
  // Text before the first word shown and after the last: whole when it holds no word, else "…".
  const lead = content.slice(0, shown[0]!.start);
  let out = HAS_TOKEN.test(lead) ? "…" : tidy(lead);
  let at = shown[0]!.start;
  for (const span of shown) {
    out += tidy(content.slice(at, span.start));
    const word = escapeText(content.slice(span.start, span.end));
    out += span.hit ? `<mark>${word}</mark>` : word;
    at = span.end;
  }
  const rest = content.slice(at);
  out += HAS_TOKEN.test(rest) ? "…" : tidy(rest);
  return out.trim();
}
