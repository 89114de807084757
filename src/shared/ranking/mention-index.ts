// Ranking for the composer's @ popup (spec rules 8 to 13). Pure and dependency-free, so the
// server (the mention worker, src/mentions/) and the webview rank the same way.
//
// Tiers, best first: exact name; name prefix; name word start (after / _ . - : or a camelCase
// hump); name substring; path prefix; path substring; other search text (tags, descriptions);
// fuzzy subsequence of the path (which covers the name). Case-insensitive. Ties keep catalog order;
// inside the fuzzy tier, matches are ordered by match quality first (see fuzzy-score.ts).
//
// MentionIndex is one object whose concerns are layers of one class chain, each in its own file, so
// that the hot loops read typed arrays straight off `this` as they would in a single class:
//   index-tables.ts  the tables, built once per scan (or moved in from another thread);
//   tier-scan.ts     the real tiers: one scan of the names and of the folders per keystroke;
//   fuzzy-tier.ts    the fuzzy tier: bounds from masks, a bucket queue, a bounded heap;
//   this file        a keystroke from start to end: the narrowing, the early answers when the
//                    name or path tiers fill the list, the merge of the tiers, and highlights.
// The caller's narrowing state (narrowing.ts) is all a keystroke keeps between calls.
import { charClass, EXACT_CLASSES, lowerKeepingLength, wordStartAt } from "./char-classes";
import { FuzzyHeap, possible } from "./fuzzy-score";
import { FuzzyTier } from "./fuzzy-tier";
import { JOIN, type IndexEntry } from "./index-tables";
import type { SearchState } from "./narrowing";
import { DROPPED, MAX_HEADS, NONE, NO_MATCH, queryBigrams, queryClasses, Tier, TIERS } from "./tier-scan";

export { Tier } from "./tier-scan";
export type { IndexEntry, IndexSnapshot } from "./index-tables";
export type { SearchState } from "./narrowing";

/**
 * A keystroke's ranked entries and their tiers; `fuzzyRanges[n]`, where set, the highlight ranges
 * of entry n (as highlights() would give them, found while ranking: always for a fuzzy match), and
 * `fuzzyScores[n]` its score (for a fuzzy match; merging shards orders by it, see
 * src/mentions/mention-shards.ts).
 */
export type SearchResult = {
  indices: number[];
  tiers: number[];
  total: number;
  fuzzyRanges?: [number, number][][];
  fuzzyScores?: number[];
};

/** The stages at which the parts of a split index compare counts (see PartsTogether). */
export const enum Stage {
  /** Name matches. */
  Names = 0,
  /** Name and path matches. */
  Paths = 1,
  /** Every match but the fuzzy ones. */
  Real = 2,
}

/**
 * For one part of an index split across threads (see src/mentions/mention-shards.ts): tells how
 * many matches this part found at a stage and returns how many the other parts found there, as far
 * as known (none when not known in time: only slower, never wrong). When the names, or names and
 * paths, of all parts together fill the list, each part answers with those alone, as a whole index
 * would; when all their real matches leave fewer fuzzy places than this part's list has, its fuzzy
 * tier needs only that many. A part tells Names and Paths once per search, a count it has at least
 * (a stage it never works out, the count of the one before), since the other may wait for it;
 * `wait` false: never wait for the others' count (the decision it makes is not worth waiting for).
 */
export type PartsTogether = (stage: Stage, count: number, wait?: boolean) => number;

/** What rankFiles needs of an index: one in this thread (MentionIndex) or split across threads. */
export interface RankingIndex {
  search(query: string, limit?: number, state?: SearchState): SearchResult;
  highlights(i: number, query: string, tier: number): [number, number][];
  /** Releases what the index holds outside this thread (an index replaced by a newer one). */
  dispose?(): void;
}

/**
 * The ranking of a list of entries for the @ popup (see the top of this file).
 *
 * A keystroke looks only at the previous query's matches when the query grew (a longer query's
 * matches, real or fuzzy, are a subset of its prefix's; names and folders are searched joined,
 * only where the previous query occurred); that state belongs to the caller (one per client), so
 * two people typing at once never undo each other's narrowing. Real tiers come out in catalog
 * order; fuzzy matches are read best bound first, and only those that can still make the best
 * `limit` are scored into a bounded heap (see rankFuzzy and fuzzy-score.ts).
 */
export class MentionIndex extends FuzzyTier implements RankingIndex {
  /** The narrowing state of callers that do not keep their own. */
  private readonly sharedState: SearchState = {};

  /**
   * Builds the index a slice at a time, calling `pause` between slices (a worker answers other
   * requests meanwhile); the index is usable once the promise resolves.
   */
  static async build(
    entries: readonly IndexEntry[],
    pause: () => Promise<void>,
    slice = 25_000,
  ): Promise<MentionIndex> {
    const index = new MentionIndex(entries, true);
    for (let from = 0; from < entries.length; from += slice) {
      index.fill(from, Math.min(entries.length, from + slice));
      await pause();
    }
    index.finish();
    return index;
  }

  /** The tier of entry `i` for a query (for tests and one-off checks), or -1. */
  tierOf(i: number, query: string): number {
    const q = lowerKeepingLength(query);
    this.resetFolderMemo(q);
    const real = this.realTier(i, q, q.includes("/"), queryClasses(q), ...queryBigrams(q));
    if (real !== NO_MATCH) return real;
    return this.isFuzzy(i, q) ? Tier.Fuzzy : NO_MATCH;
  }

  /**
   * Entry indices ranked for `query`, at most `limit`; `total` counts the matches found, all of
   * them only when nothing cut the search short: when the name tiers, or the name and path tiers,
   * fill the list, only theirs (tags and fuzzy matches are not looked for), and fuzzy ones only
   * when the real tiers left room. `state` is the caller's narrowing state (see SearchState);
   * without one, the index keeps a shared one.
   */
  search(
    query: string,
    limit = Infinity,
    state: SearchState = this.sharedState,
    together?: PartsTogether,
  ): SearchResult {
    const q = lowerKeepingLength(query);
    if (q.includes(JOIN)) return { indices: [], tiers: [], total: 0 };
    this.resetFolderMemo(q);
    const from = state.query !== undefined && state.matches && q.startsWith(state.query) ? state.matches : undefined;
    const out = this.scratch;
    const tiers = this.tierBuffer;
    const counts = new Int32Array(TIERS);
    const code = q.charCodeAt(0);
    const oneChar = q.length === 1 && charClass(code) < EXACT_CLASSES;
    const hasSlash = q.includes("/");
    const candidates = from ? from.length : this.size;
    // Many candidates: find name matches with one sequential scan; few: search each name directly.
    const scan = !oneChar && (hasSlash || candidates > this.size / 8);
    const nameTiers = scan ? this.scanNames(q, hasSlash, state) : undefined;
    // When names alone fill the list, no other tier can reach it: answer without looking at each
    // candidate. The narrowing state stays as it was (still a superset of this query's matches).
    const named = oneChar ? this.firstCharMatches(code, from) : nameTiers ? this.nameMatchCount : 0;
    // Part of a split index: its other parts' name matches may fill the list with these (a name
    // count not worked out here is told as none, which decides nothing).
    const namesKnown = oneChar || nameTiers ? named : 0;
    const namesFill = together ? namesKnown + together(Stage.Names, namesKnown) >= limit : false;
    this.warmFolders(q, state, from);
    if (named >= limit || namesFill) {
      together?.(Stage.Paths, namesKnown, false);
      state.query = q;
      state.matches = from;
      return this.fromNameMatches(named, limit);
    }
    if (scan) this.scanFolders(q, state);
    // When the name and path tiers fill the list, they are counted per folder: no candidate is read.
    const byFolder = nameTiers
      ? this.fromPathMatches(q, named, limit, hasSlash, together)
      : void together?.(Stage.Paths, namesKnown, false);
    if (byFolder) {
      state.query = q;
      state.matches = from;
      return byFolder;
    }
    // Each candidate's tier; not a real match: PENDING (maybe fuzzy, decided below or left open).
    let count = nameTiers
      ? this.tiersFromScan(q, from, candidates, nameTiers, hasSlash, counts)
      : this.tiersOneByOne(q, from, candidates, oneChar, counts);
    let real = 0;
    for (let tier = 0; tier < Tier.Fuzzy; tier++) real += counts[tier]!;

    const indices: number[] = [];
    const tierOut: number[] = [];
    for (let tier = 0; tier < Tier.Fuzzy && indices.length < limit; tier++) {
      let wanted = Math.min(counts[tier]!, limit - indices.length);
      for (let n = 0; n < count && wanted > 0; n++) {
        if (tiers[n] !== tier) continue;
        indices.push(out[n]!);
        tierOut.push(tier);
        wanted--;
      }
    }
    let fuzzy = 0;
    let fuzzyRanges: [number, number][][] | undefined;
    let fuzzyScores: number[] | undefined;
    // Part of a split index: the others' real matches take places of the merged list too, and only
    // the places they leave can hold fuzzy matches (their count is not waited for).
    const fuzzyPlaces =
      limit - indices.length - (together && indices.length < limit ? together(Stage.Real, real, false) : 0);
    if (fuzzyPlaces > 0 && real < count) {
      // Fuzzy matches rank last, best first: a bounded heap keeps the best few.
      const heap = new FuzzyHeap(Math.min(fuzzyPlaces, count - real), this.nameLength);
      const ranked = this.rankFuzzy(q, count, heap, state);
      fuzzy = ranked.matched;
      // Keep, in catalog order, the real matches, the fuzzy ones and those never looked at: the
      // next keystroke narrows from a superset of its matches, which is all it needs.
      let kept = 0;
      for (let n = 0; n < count; n++) {
        if (tiers[n] === DROPPED) continue;
        out[kept] = out[n]!;
        tiers[kept++] = tiers[n]!;
      }
      count = kept;
      if (ranked.order.length > 0) {
        fuzzyRanges = new Array(indices.length);
        fuzzyScores = new Array(indices.length).fill(0);
      }
      ranked.order.forEach((i, k) => {
        indices.push(i);
        tierOut.push(Tier.Fuzzy);
        fuzzyRanges!.push(ranked.ranges[k]!);
        fuzzyScores!.push(ranked.scores[k]!);
      });
    }
    state.query = q;
    state.matches = out.slice(0, count);
    return { indices, tiers: tierOut, total: real + fuzzy, ...(fuzzyRanges && { fuzzyRanges, fuzzyScores }) };
  }

  /**
   * The ranked list from the `count` name matches in nameMatches: by tier, catalog order inside a
   * tier, as the full pass would give when these alone fill `limit`.
   */
  private fromNameMatches(count: number, limit: number): SearchResult {
    const tiers = this.nameTierBuffer;
    const matches = this.nameMatches;
    const indices: number[] = [];
    const tierOut: number[] = [];
    for (let tier = Tier.Exact; tier <= Tier.NameSubstring && indices.length < limit; tier++) {
      for (let n = 0; n < count && indices.length < limit; n++) {
        const i = matches[n]!;
        if (tiers[i] !== tier) continue;
        indices.push(i);
        tierOut.push(tier);
      }
    }
    return { indices, tiers: tierOut, total: count };
  }

  /**
   * The list when the `named` name matches (fewer than `limit`, tiers in nameTierBuffer) and the
   * path matches fill it, or undefined. Path matches come by folder: every file of a folder q occurs
   * in (scanFolders), and for a query with `/` the files whose name starts with what follows a `/`
   * of q in a folder that ends with what precedes it. They are counted per folder, and the first in
   * catalog order of each path tier are taken from the folders' lists or by walking the catalog,
   * whichever reads fewer entries: at a million paths, `src/u` no longer reads each candidate.
   */
  private fromPathMatches(
    q: string,
    named: number,
    limit: number,
    hasSlash: boolean,
    together?: PartsTogether,
  ): SearchResult | undefined {
    if (hasSlash && this.heads.length === MAX_HEADS) return void together?.(Stage.Paths, named, false);
    const folders = this.dirLower.length;
    const { dirFirst, dirEntryStart, dirEntries } = this;
    const nameTiers = this.nameTierBuffer;
    let prefix = 0;
    let substring = 0;
    // Files matching across their folder's end: in folders q does not occur in, so counted once.
    const crossing: number[] = [];
    for (let d = 0; d < folders; d++) {
      const at = dirFirst[d]!;
      const files = dirEntryStart[d + 1]! - dirEntryStart[d]!;
      if (at === 0) prefix += files;
      else if (at > 0) substring += files;
      else if (hasSlash && this.heads.length > 0 && this.folderEnds(d) !== 0) {
        for (let k = dirEntryStart[d]!; k < dirEntryStart[d + 1]!; k++) {
          const i = dirEntries[k]!;
          const first = this.folderFirst(i, q, true);
          if (first === -1) continue;
          crossing.push(i);
          if (first === 0) prefix++;
          else substring++;
        }
      }
    }
    // A name match in such a folder is in its name tier.
    for (let n = 0; n < named; n++) {
      const at = dirFirst[this.dirId[this.nameMatches[n]!]!]!;
      if (at === 0) prefix--;
      else if (at > 0) substring--;
    }
    // A split index's other parts may fill the list with these (see PartsTogether); told either way.
    const found = named + prefix + substring;
    const fill =
      found >= limit
        ? (together?.(Stage.Paths, found, false), true)
        : together
          ? found + together(Stage.Paths, found) >= limit
          : false;
    if (!fill) return undefined;
    const result = this.fromNameMatches(named, named);
    const pathTier = (i: number) => {
      if (nameTiers[i] !== NONE) return NONE;
      const first = this.folderFirst(i, q, hasSlash);
      return first === -1 ? NONE : first === 0 ? Tier.PathPrefix : Tier.PathSubstring;
    };
    for (const [tier, total] of [
      [Tier.PathPrefix, prefix],
      [Tier.PathSubstring, substring],
    ] as const) {
      const wanted = Math.min(total, limit - result.indices.length);
      if (wanted <= 0) continue;
      let picked: number[];
      // Walking the catalog reads about wanted * size / total entries; the folders' lists, total.
      if (total <= (wanted * this.size) / total) {
        picked = crossing.filter((i) => pathTier(i) === tier);
        for (let d = 0; d < folders; d++) {
          const at = dirFirst[d]!;
          if (at === -1 || (at === 0) !== (tier === Tier.PathPrefix)) continue;
          for (let k = dirEntryStart[d]!; k < dirEntryStart[d + 1]!; k++)
            if (nameTiers[dirEntries[k]!] === NONE) picked.push(dirEntries[k]!);
        }
        picked = picked.sort((a, b) => a - b).slice(0, wanted);
      } else {
        picked = [];
        for (let i = 0; i < this.size && picked.length < wanted; i++) if (pathTier(i) === tier) picked.push(i);
      }
      for (const i of picked) {
        result.indices.push(i);
        result.tiers.push(tier);
      }
    }
    result.total = named + prefix + substring;
    return result;
  }

  /** [start, end) ranges of the matched characters inside the entry's name. */
  highlights(i: number, query: string, tier: number): [number, number][] {
    const q = lowerKeepingLength(query);
    const name = this.nameText(i);
    if (tier <= Tier.NameSubstring) {
      let at = name.indexOf(q);
      if (tier === Tier.NameWordStart) {
        while (
          at !== -1 &&
          !(at < 32 ? (this.wordMask[i]! >>> at) & 1 : wordStartAt(this.namesOriginal, this.nameOffset[i]! + at))
        )
          at = name.indexOf(q, at + 1);
      }
      return at === -1 ? [] : [[at, at + q.length]];
    }
    if (tier === Tier.PathPrefix || tier === Tier.PathSubstring) {
      // Highlight the part of the match that falls inside the name, if any.
      const folder = this.dirLower[this.dirId[i]!]!;
      const ns = folder.length;
      const at = tier === Tier.PathPrefix ? 0 : (folder + name).indexOf(q);
      const start = Math.max(at, ns);
      const end = at + q.length;
      return end > start ? [[start - ns, end - ns]] : [];
    }
    if (tier === Tier.Fuzzy) {
      const { score, split, fq, scratch } = this.scoreOne(i, q);
      return possible(score) ? this.splitRanges(i, fq, split, scratch) : [];
    }
    return [];
  }
}
