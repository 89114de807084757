// Ranking for the composer's @ popup (spec rules 8 to 13). Pure and dependency-free, so the
// server and the webview rank the same way.
//
// Tiers, best first: exact name; name prefix; name word start (after / _ . - : or a camelCase
// hump); name substring; path prefix; path substring; other search text (tags, descriptions);
// fuzzy subsequence of the path (which covers the name). Case-insensitive. Ties keep catalog order.

export const enum Tier {
  Exact = 0,
  NamePrefix = 1,
  NameWordStart = 2,
  NameSubstring = 3,
  PathPrefix = 4,
  PathSubstring = 5,
  Other = 6,
  Fuzzy = 7,
}
const TIERS = 8;
const NO_MATCH = -1;

export type IndexEntry = {
  /** What is searched as the path; for non-file items, the label itself. */
  path: string;
  /** Where the name starts inside `path` (the file name after the last `/`; 0 for labels). */
  nameStart: number;
  /** Other search text: tags, descriptions. */
  other?: string;
};

const SEPARATORS = "/_.-: ";
const isUpper = (c: string) => c >= "A" && c <= "Z";
const isLowerOrDigit = (c: string) => (c >= "a" && c <= "z") || (c >= "0" && c <= "9");

/** A word starts at name position k (k > 0) after a separator or at a camelCase hump. */
function wordStartAt(original: string, index: number): boolean {
  const prev = original[index - 1]!;
  const cur = original[index]!;
  return SEPARATORS.includes(prev) || (isLowerOrDigit(prev) && isUpper(cur));
}

/**
 * The searchable form of a list of entries, built once (per scan): lower-cased paths, name
 * offsets and word-start masks, so a keystroke never re-derives anything per entry. Remembers the
 * last query's matches so that a growing query only re-checks those (every tier's match set can
 * only shrink as the query grows).
 */
export class MentionIndex {
  readonly size: number;
  private readonly paths: string[];
  private readonly lower: string[];
  private readonly nameStart: Int32Array;
  /** Bit k set: name position k (k < 32) starts a word. */
  private readonly wordMask: Uint32Array;
  private readonly other: (string | undefined)[];
  private last: { query: string; matches: Int32Array } | undefined;

  constructor(entries: readonly IndexEntry[]) {
    this.size = entries.length;
    this.paths = new Array(this.size);
    this.lower = new Array(this.size);
    this.nameStart = new Int32Array(this.size);
    this.wordMask = new Uint32Array(this.size);
    this.other = new Array(this.size);
    for (let i = 0; i < this.size; i++) {
      const entry = entries[i]!;
      const lower = entry.path.toLowerCase();
      this.paths[i] = entry.path;
      // Most paths are lower case already: share the string instead of holding a copy.
      this.lower[i] = lower === entry.path ? entry.path : lower;
      this.nameStart[i] = entry.nameStart;
      let mask = 0;
      const end = Math.min(entry.path.length - entry.nameStart, 32);
      for (let k = 1; k < end; k++) if (wordStartAt(entry.path, entry.nameStart + k)) mask |= 1 << k;
      this.wordMask[i] = mask >>> 0;
      this.other[i] = entry.other?.toLowerCase();
    }
  }

  path(index: number): string {
    return this.paths[index]!;
  }

  /** The tier of entry `i` for a lower-cased query, or -1. */
  tierOf(i: number, q: string): number {
    const lower = this.lower[i]!;
    const ns = this.nameStart[i]!;
    let at = lower.indexOf(q, ns);
    if (at !== -1) {
      if (at === ns) return lower.length - ns === q.length ? Tier.Exact : Tier.NamePrefix;
      while (at !== -1) {
        const k = at - ns;
        if (k < 32 ? (this.wordMask[i]! >>> k) & 1 : wordStartAt(this.paths[i]!, at)) return Tier.NameWordStart;
        at = lower.indexOf(q, at + 1);
      }
      return Tier.NameSubstring;
    }
    if (lower.startsWith(q)) return Tier.PathPrefix;
    if (lower.indexOf(q) !== -1) return Tier.PathSubstring;
    const other = this.other[i];
    if (other !== undefined && other.indexOf(q) !== -1) return Tier.Other;
    return isSubsequence(lower, q) ? Tier.Fuzzy : NO_MATCH;
  }

  /**
   * Entry indices ranked for `query`: by tier, ties in catalog order. `limit` caps what is
   * returned (all matches still count for `total` and for narrowing the next query).
   */
  search(query: string, limit = Infinity): { indices: number[]; tiers: number[]; total: number } {
    const q = query.toLowerCase();
    const narrowFrom = this.last && q.startsWith(this.last.query) ? this.last.matches : undefined;
    const buckets: number[][] = Array.from({ length: TIERS }, () => []);
    const matches: number[] = [];
    const count = narrowFrom ? narrowFrom.length : this.size;
    for (let n = 0; n < count; n++) {
      const i = narrowFrom ? narrowFrom[n]! : n;
      const tier = this.tierOf(i, q);
      if (tier === NO_MATCH) continue;
      buckets[tier]!.push(i);
      matches.push(i);
    }
    this.last = { query: q, matches: Int32Array.from(matches) };
    const indices: number[] = [];
    const tiers: number[] = [];
    for (let tier = 0; tier < TIERS && indices.length < limit; tier++) {
      for (const i of buckets[tier]!) {
        if (indices.length >= limit) break;
        indices.push(i);
        tiers.push(tier);
      }
    }
    return { indices, tiers, total: matches.length };
  }

  /** [start, end) ranges of the matched characters inside the entry's name. */
  highlights(i: number, query: string, tier: number): [number, number][] {
    const q = query.toLowerCase();
    const lower = this.lower[i]!;
    const ns = this.nameStart[i]!;
    if (tier <= Tier.NameSubstring) {
      let at = lower.indexOf(q, ns);
      if (tier === Tier.NameWordStart) {
        while (at !== -1 && !(at - ns < 32 ? (this.wordMask[i]! >>> (at - ns)) & 1 : wordStartAt(this.paths[i]!, at))) at = lower.indexOf(q, at + 1);
      }
      return at === -1 ? [] : [[at - ns, at - ns + q.length]];
    }
    if (tier === Tier.PathPrefix || tier === Tier.PathSubstring) {
      // Highlight the part of the match that falls inside the name, if any.
      const at = tier === Tier.PathPrefix ? 0 : lower.indexOf(q);
      const start = Math.max(at, ns);
      const end = at + q.length;
      return end > start ? [[start - ns, end - ns]] : [];
    }
    if (tier === Tier.Fuzzy) return mergeRanges(fuzzyPositions(lower, q).filter((p) => p >= ns).map((p) => p - ns));
    return [];
  }
}

function isSubsequence(text: string, q: string): boolean {
  let at = 0;
  for (let k = 0; k < q.length; k++) {
    at = text.indexOf(q[k]!, at);
    if (at === -1) return false;
    at++;
  }
  return true;
}

/** Positions of a subsequence match that prefers the name: matched from the end backwards. */
function fuzzyPositions(text: string, q: string): number[] {
  const positions: number[] = [];
  let at = text.length;
  for (let k = q.length - 1; k >= 0; k--) {
    at = text.lastIndexOf(q[k]!, at - 1);
    if (at === -1) return [];
    positions.unshift(at);
  }
  return positions;
}

function mergeRanges(positions: number[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const p of positions) {
    const last = ranges.at(-1);
    if (last && last[1] === p) last[1] = p + 1;
    else ranges.push([p, p + 1]);
  }
  return ranges;
}
