// Ranking for the composer's @ popup (spec rules 8 to 13). Pure and dependency-free, so the
// server and the webview rank the same way.
//
// Tiers, best first: exact name; name prefix; name word start (after / _ . - : or a camelCase
// hump); name substring; path prefix; path substring; other search text (tags, descriptions);
// fuzzy subsequence of the path (which covers the name). Case-insensitive. Ties keep catalog order;
// inside the fuzzy tier, matches are ordered by match quality first (see mention-fuzzy.ts).

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
const UNKNOWN = -2;
const NONE = 255;
/** A candidate that is no real match and may be a fuzzy one. */
const PENDING = 254;
/** A candidate that turned out to match nothing. */
const DROPPED = 253;
/** entryScore's answer for a match none of whose splits can make the list. */
const BELOW = IMPOSSIBLE + 1;
/**
 * What joins names (and folders) into one string: NUL, which no file name holds (a newline can), so
 * no query matches across two names; a query with a NUL matches nothing.
 */
export const JOIN = "\u0000";
/** A query's `/` heads memoised per folder, one bit each (a signed 32-bit mask keeps 31). */
const MAX_HEADS = 31;

import {
  FolderCache,
  FolderSplits,
  FuzzyHeap,
  FuzzyQuery,
  IMPOSSIBLE,
  MAX_FUZZY_QUERY,
  NameScratch,
  nameBounds,
  nameOnlyBound,
  nameSplit,
  nameTail,
  possible,
} from "./mention-fuzzy";
import {
  bigramMask,
  charClass,
  classMask,
  EXACT_CLASSES,
  lowerKeepingLength,
  twiceClassMask,
  wordStartAt,
} from "./mention-text";

/** What snapshot() moves to another thread: the entries' arrays and strings (see MentionIndex). */
export type IndexSnapshot = {
  size: number;
  firstNameCode: Uint16Array;
  nameLength: Uint16Array;
  wordMask: Uint32Array;
  wordStartClasses: Uint32Array;
  nameClasses: Uint32Array;
  nameTwice: Uint32Array;
  anyClasses: Uint32Array;
  nameBigramsLow: Uint32Array;
  nameBigramsHigh: Uint32Array;
  dirId: Int32Array;
  nameOffset: Int32Array;
  hasOther: Uint8Array;
  names: string;
  namesOriginal: string;
  other: [number, string][];
  dirLower: string[];
  dirOriginal: string[];
};

export type IndexEntry = {
  /** What is searched as the path; for non-file items, the label itself. */
  path: string;
  /** Where the name starts inside `path` (the file name after the last `/`; 0 for labels). */
  nameStart: number;
  /** Other search text: tags, descriptions. */
  other?: string;
};

/** How many leading characters of q (from `k`) appear in order in `text` from `from` (greedy). */
function subsequencePrefix(text: string, q: string, k: number, from: number): number {
  let at = from;
  for (; k < q.length; k++) {
    at = text.indexOf(q[k]!, at);
    if (at === -1) return k;
    at++;
  }
  return k;
}

/**
 * A keystroke's ranked entries and their tiers; `fuzzyRanges[n]`, where set, the highlight ranges
 * of entry n (as highlights() would give them, found while ranking: always for a fuzzy match), and
 * `fuzzyScores[n]` its score (for a fuzzy match; merging shards orders by it, see mention-shards.ts).
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
 * For one part of an index split across threads (see mention-shards.ts): tells how many matches
 * this part found at a stage and returns how many the other parts found there, as far as known
 * (none when not known in time: only slower, never wrong). When the names, or names and paths, of
 * all parts together fill the list, each part answers with those alone, as a whole index would;
 * when all their real matches leave fewer fuzzy places than this part's list has, its fuzzy tier
 * needs only that many. A part tells Names and Paths once per search, a count it has at least (a
 * stage it never works out, the count of the one before), since the other may wait for it;
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

/** What one client typed last and what matched it: the next keystroke that extends it narrows from it. */
type Occurrences = { query: string; at: Int32Array };
export type SearchState = {
  query?: string;
  matches?: Int32Array;
  /** Where the last scanned query occurs in the joined names and folders (see scanNames, scanFolders). */
  occurrences?: Occurrences;
  folderOccurrences?: Occurrences;
};
/** Folder caches an index keeps (each about 180 bytes a folder), for the typists seen last. */
const FOLDER_CACHES = 2;
/** Splits a keystroke keeps a folder bound for each (see tailBounds). */
const TAIL_SPLITS = 16;

/**
 * The searchable form of a list of entries, built once per scan, so that a keystroke never
 * re-derives anything per entry: the names joined (lower case and as written: no entry keeps a
 * string of its own, which at a million paths is most of an index's memory), each folder once, name
 * offsets, character-class masks of the
 * path, the name and its word starts, a bigram mask of the name, and the folder of each entry
 * (files share folders, so the folder part is searched once per folder and keystroke).
 *
 * A keystroke looks only at the previous query's matches when the query grew (a longer query's
 * matches, real or fuzzy, are a subset of its prefix's; names and folders are searched joined,
 * only where the previous query occurred); that state belongs to the caller (one per client), so
 * two people typing at once never undo each other's narrowing. Real tiers come out in catalog
 * order; fuzzy matches are read best bound first, and only those that can still make the best
 * `limit` are scored into a bounded heap (see rankFuzzy and mention-fuzzy.ts).
 */
export class MentionIndex implements RankingIndex {
  readonly size: number;
  private readonly firstNameCode: Uint16Array;
  private readonly nameLength: Uint16Array;
  /** Bit k set: name position k (k < 32) starts a word. */
  private readonly wordMask: Uint32Array;
  private readonly wordStartClasses: Uint32Array;
  private readonly nameClasses: Uint32Array;
  /** The classes the name holds twice or more (a query with two e's needs a name with two). */
  private readonly nameTwice: Uint32Array;
  /** Classes in the path and the other text: every tier needs all of the query's. */
  private readonly anyClasses: Uint32Array;
  private readonly nameBigramsLow: Uint32Array;
  private readonly nameBigramsHigh: Uint32Array;
  /** Other search text (lower case), for the few entries that have it. */
  private readonly other: Map<number, string> = new Map();
  private readonly hasOther: Uint8Array;
  /** All lower-cased names in catalog order, joined by JOIN, and where each one starts. */
  private names = "";
  /** The same as written (the same string when no name has a capital). */
  private namesOriginal = "";
  private readonly nameOffset: Int32Array;
  /** Per keystroke: the name tier of each entry from one sequential scan of `names` (255: none). */
  private readonly nameTierBuffer: Uint8Array;
  /**
   * The entries scanNames (or firstCharMatches) found, in catalog order, and how many. Shares the
   * scratch buffer: it is read only when the name matches answer alone, before the scratch is used.
   */
  private readonly nameMatches: Int32Array;
  private nameMatchCount = 0;
  private readonly dirId: Int32Array;
  /** Each folder (with its closing `/`) as written and lower-cased. */
  private readonly dirOriginal: string[] = [];
  private readonly dirLower: string[] = [];
  /** The masks of all names in a folder OR-ed, for a bound that holds for each of them. */
  private dirNameStarts = new Int32Array(0);
  private dirNameClasses = new Int32Array(0);
  private dirNameBigramsLow = new Int32Array(0);
  private dirNameBigramsHigh = new Int32Array(0);
  private dirLongestName = new Int32Array(0);
  private dirFirst = new Int32Array(0);
  /** Folder d's entries, in catalog order: dirEntries[dirEntryStart[d] .. dirEntryStart[d + 1]). */
  private dirEntryStart = new Int32Array(1);
  private dirEntries = new Int32Array(0);
  /** All lower-cased folders joined by JOIN, and where each one starts (see scanFolders). */
  private dirsJoined = "";
  private dirsOriginalJoined = "";
  private dirClasses = new Int32Array(0);
  private dirOffset = new Int32Array(0);
  private dirConsumed = new Int32Array(0);
  /**
   * For a query with a `/`: which of its heads (see resetFolderMemo) each folder ends with, one bit per
   * head (UNKNOWN until looked at), so a candidate costs at most a name-prefix test per such head.
   */
  private dirHeads = new Int32Array(0);
  /** The current query's heads (each up to and including one of its `/`) and the rest after each. */
  private heads: string[] = [];
  private rests: string[] = [];
  /** suffixClasses[k]: the classes of q from position k on (for isFuzzy's name test). */
  private suffixClasses = new Int32Array(0);
  /** Scratch for one keystroke (a search runs to completion before the next starts). */
  private readonly scratch: Int32Array;
  private readonly tierBuffer: Uint8Array;
  /**
   * Scratch for the fuzzy tier, per folder: whether it is worked out this keystroke, how much of q
   * it holds, and for each split t the best bound of the splits from t on (m + 1 a folder).
   */
  private folderSeen = new Uint8Array(0);
  private folderConsumed = new Int32Array(0);
  private folderTail = new Int32Array(0);
  /** Scratch for the fuzzy tier, per candidate position: its bound, the bucket queue's links, whether its bound is its own. */
  private entryBound = new Int32Array(0);
  private entryOrder = new Int32Array(0);
  private entryRefined = new Uint8Array(0);
  /** Scratch for the fuzzy tier: the folders a keystroke looked at. */
  private touchedFolders = new Int32Array(0);
  /** The narrowing state of callers that do not keep their own. */
  private readonly sharedState: SearchState = {};

  /** An index of `entries`, or one moved here whole from another thread (see snapshot()). */
  constructor(source: readonly IndexEntry[] | IndexSnapshot, deferred = false) {
    const snapshot = Array.isArray(source) ? undefined : (source as IndexSnapshot);
    const size = (this.size = snapshot ? snapshot.size : (source as readonly IndexEntry[]).length);
    this.firstNameCode = snapshot?.firstNameCode ?? new Uint16Array(size);
    this.nameLength = snapshot?.nameLength ?? new Uint16Array(size);
    this.wordMask = snapshot?.wordMask ?? new Uint32Array(size);
    this.wordStartClasses = snapshot?.wordStartClasses ?? new Uint32Array(size);
    this.nameClasses = snapshot?.nameClasses ?? new Uint32Array(size);
    this.nameTwice = snapshot?.nameTwice ?? new Uint32Array(size);
    this.anyClasses = snapshot?.anyClasses ?? new Uint32Array(size);
    this.nameBigramsLow = snapshot?.nameBigramsLow ?? new Uint32Array(size);
    this.nameBigramsHigh = snapshot?.nameBigramsHigh ?? new Uint32Array(size);
    this.dirId = snapshot?.dirId ?? new Int32Array(size);
    this.nameOffset = snapshot?.nameOffset ?? new Int32Array(size);
    this.hasOther = snapshot?.hasOther ?? new Uint8Array(size);
    this.scratch = new Int32Array(size);
    this.tierBuffer = new Uint8Array(size);
    this.nameTierBuffer = new Uint8Array(size);
    this.nameMatches = this.scratch;
    if (snapshot) {
      this.names = snapshot.names;
      this.namesOriginal = snapshot.namesOriginal;
      this.other = new Map(snapshot.other);
      this.dirLower = snapshot.dirLower;
      this.dirOriginal = snapshot.dirOriginal;
      this.deriveFolders();
      return;
    }
    this.entries = source as readonly IndexEntry[];
    this.nameParts = new Array(size);
    this.originalParts = new Array(size);
    if (deferred) return;
    this.fill(0, size);
    this.finish();
  }

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

  private entries: readonly IndexEntry[] | undefined;
  private nameParts: string[] | undefined;
  private originalParts: string[] | undefined;
  private nextOffset = 0;
  private readonly dirIds = new Map<string, number>();

  private fill(from: number, to: number): void {
    const entries = this.entries!;
    const nameParts = this.nameParts!;
    const originalParts = this.originalParts!;
    const dirIds = this.dirIds;
    let offset = this.nextOffset;
    for (let i = from; i < to; i++) {
      const { path, nameStart: ns, other } = entries[i]!;
      const lower = lowerKeepingLength(path);
      this.firstNameCode[i] = lower.charCodeAt(ns) || 0;
      this.nameLength[i] = Math.min(lower.length - ns, 0xffff);
      let positions = 0;
      let starts = ns < lower.length ? 1 << charClass(lower.charCodeAt(ns)) : 0;
      for (let k = 1; k < path.length - ns; k++) {
        if (!wordStartAt(path, ns + k)) continue;
        if (k < 32) positions |= 1 << k;
        starts |= 1 << charClass(lower.charCodeAt(ns + k));
      }
      this.wordMask[i] = positions >>> 0;
      this.wordStartClasses[i] = starts >>> 0;
      this.nameClasses[i] = classMask(lower, ns);
      this.nameTwice[i] = twiceClassMask(lower, ns);
      const otherLower = other === undefined ? undefined : lowerKeepingLength(other);
      if (otherLower !== undefined) this.other.set(i, otherLower);
      this.hasOther[i] = otherLower === undefined ? 0 : 1;
      this.anyClasses[i] = (classMask(lower) | (otherLower === undefined ? 0 : classMask(otherLower))) >>> 0;
      [this.nameBigramsLow[i], this.nameBigramsHigh[i]] = bigramMask(lower, ns);
      // Keyed as written: the fuzzy score's camelCase humps read the folder's own letters.
      const dir = path.slice(0, ns);
      let id = dirIds.get(dir);
      if (id === undefined) {
        id = this.dirLower.length;
        dirIds.set(dir, id);
        this.dirOriginal.push(dir);
        this.dirLower.push(lower === path ? dir : lower.slice(0, ns));
      }
      this.dirId[i] = id;
      nameParts[i] = lower.slice(ns);
      originalParts[i] = lower === path ? nameParts[i]! : path.slice(ns);
      this.nameOffset[i] = offset;
      offset += lower.length - ns + 1;
    }
    this.nextOffset = offset;
  }

  private finish(): void {
    this.names = this.nameParts!.join(JOIN);
    const namesOriginal = this.originalParts!.join(JOIN);
    this.namesOriginal = namesOriginal === this.names ? this.names : namesOriginal;
    this.nameParts = this.originalParts = undefined;
    this.entries = undefined;
    this.dirIds.clear();
    this.deriveFolders();
  }

  /**
   * What this index is made of, to be moved to another thread (new MentionIndex(snapshot) there):
   * its arrays go in `transfer` and are gone from here, so this index is not to be used after. A
   * snapshot holds nothing but the index (no paths, no garbage of its build), and the derived
   * folder tables are worked out again on arrival.
   */
  snapshot(): { snapshot: IndexSnapshot; transfer: ArrayBuffer[] } {
    const snapshot: IndexSnapshot = {
      size: this.size,
      firstNameCode: this.firstNameCode,
      nameLength: this.nameLength,
      wordMask: this.wordMask,
      wordStartClasses: this.wordStartClasses,
      nameClasses: this.nameClasses,
      nameTwice: this.nameTwice,
      anyClasses: this.anyClasses,
      nameBigramsLow: this.nameBigramsLow,
      nameBigramsHigh: this.nameBigramsHigh,
      dirId: this.dirId,
      nameOffset: this.nameOffset,
      hasOther: this.hasOther,
      names: this.names,
      namesOriginal: this.namesOriginal,
      other: [...this.other],
      dirLower: this.dirLower,
      dirOriginal: this.dirOriginal,
    };
    const arrays = [
      snapshot.firstNameCode,
      snapshot.nameLength,
      snapshot.wordMask,
      snapshot.wordStartClasses,
      snapshot.nameClasses,
      snapshot.nameTwice,
      snapshot.anyClasses,
      snapshot.nameBigramsLow,
      snapshot.nameBigramsHigh,
      snapshot.dirId,
      snapshot.nameOffset,
      snapshot.hasOther,
    ];
    return { snapshot, transfer: arrays.map((array) => array.buffer as ArrayBuffer) };
  }

  /** The folder tables derived from the entries' folders (after a build, or a snapshot's arrival). */
  private deriveFolders(): void {
    this.dirFirst = new Int32Array(this.dirLower.length);
    this.dirsJoined = this.dirLower.join(JOIN);
    const original = this.dirOriginal.join(JOIN);
    this.dirsOriginalJoined = original === this.dirsJoined ? this.dirsJoined : original;
    this.dirClasses = Int32Array.from(this.dirLower, (dir) => classMask(dir));
    this.dirOffset = new Int32Array(this.dirLower.length);
    for (let d = 1; d < this.dirLower.length; d++)
      this.dirOffset[d] = this.dirOffset[d - 1]! + this.dirLower[d - 1]!.length + 1;
    this.dirConsumed = new Int32Array(this.dirLower.length);
    this.dirHeads = new Int32Array(this.dirLower.length);
    this.indexFolders();
  }

  /** Per folder, its names' masks OR-ed (see dirNameStarts). */
  private indexFolders(): void {
    const folders = this.dirLower.length;
    this.dirNameStarts = new Int32Array(folders);
    this.dirNameClasses = new Int32Array(folders);
    this.dirNameBigramsLow = new Int32Array(folders);
    this.dirNameBigramsHigh = new Int32Array(folders);
    this.dirLongestName = new Int32Array(folders);
    for (let i = 0; i < this.size; i++) {
      const d = this.dirId[i]!;
      this.dirLongestName[d] = Math.max(this.dirLongestName[d]!, this.nameLength[i]!);
      this.dirNameStarts[d]! |= this.wordStartClasses[i]!;
      this.dirNameClasses[d]! |= this.nameClasses[i]!;
      this.dirNameBigramsLow[d]! |= this.nameBigramsLow[i]!;
      this.dirNameBigramsHigh[d]! |= this.nameBigramsHigh[i]!;
    }
    this.folderSeen = new Uint8Array(folders);
    this.folderConsumed = new Int32Array(folders);
    // Each folder's entries in catalog order, one list after another (a counting sort by folder).
    const start = (this.dirEntryStart = new Int32Array(folders + 1));
    for (let i = 0; i < this.size; i++) start[this.dirId[i]! + 1]!++;
    for (let d = 0; d < folders; d++) start[d + 1]! += start[d]!;
    const fill = start.slice(0, folders);
    this.dirEntries = new Int32Array(this.size);
    for (let i = 0; i < this.size; i++) this.dirEntries[fill[this.dirId[i]!]!++] = i;
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
   * The fuzzy tier: the PENDING candidates among the first `count` of the scratch lists, best first
   * into `heap`. Each gets an upper bound of its score from masks: the best its name allows with
   * all of q in the name, or the best its folder allows for the other splits (once per folder).
   * They are read from the highest bound down; once the heap is full, those below its worst kept
   * score are left PENDING unread. Those that cannot match at all are marked DROPPED, the matches
   * Tier.Fuzzy. Returns how many matched, and the kept ones best first with their highlights (worked
   * out here, where the keystroke's folder parts are at hand, not again per row).
   */
  private rankFuzzy(
    q: string,
    count: number,
    heap: FuzzyHeap,
    state: SearchState,
  ): { matched: number; order: number[]; scores: number[]; ranges: [number, number][][] } {
    const out = this.scratch;
    const tiers = this.tierBuffer;
    const { folderSeen, folderConsumed } = this;
    if (this.entryBound.length < this.size) {
      this.entryBound = new Int32Array(this.size);
      this.entryOrder = new Int32Array(this.size);
      this.entryRefined = new Uint8Array(this.size);
    }
    const { entryBound, entryOrder } = this;
    const fq = new FuzzyQuery(q.length > MAX_FUZZY_QUERY ? q.slice(0, MAX_FUZZY_QUERY) : q);
    const m = fq.m;
    // Splits past TAIL_SPLITS share one slot (the best of them): a long query must not cost a
    // folder hundreds of slots.
    const cap = Math.min(m, TAIL_SPLITS);
    const stride = cap + 1;
    if (this.folderTail.length < this.dirLower.length * stride)
      this.folderTail = new Int32Array(this.dirLower.length * stride);
    const tail = this.folderTail;
    const splits = new FolderSplits(m);
    const cache = this.folderCache(state);
    const cached = cache.prepare(fq.q);
    const folderParts = (d: number) =>
      cached ? cache.take(fq, d, splits) : splits.compute(fq, this.dirLower[d]!, this.dirOriginal[d]!);
    const bounds = new Int32Array(m);
    const scratch = new NameScratch(m);
    // A bucket queue by bound, highest first (bounds below 0 share bucket 0; no bound exceeds
    // maxBound, and one that did would only come out early), and inside a bound by name length,
    // shortest first (see BucketKeys), first in first out (catalog order): the order ties are
    // decided in. An entry goes in at its first bound, comes out, gets the tighter one from its own
    // masks, and goes back in lower if that is lower; it is read only when it comes out at a bound
    // no entry left can beat.
    const keys = new BucketKeys(fq.maxBound(), this.nameLength);
    const head = new Int32Array(keys.buckets).fill(-1);
    const last = new Int32Array(keys.buckets);
    const next = entryOrder;
    const refined = this.entryRefined;
    const enqueue = (n: number, key: number) => {
      next[n] = -1;
      if (head[key] === -1) head[key] = n;
      else next[last[key]!] = n;
      last[key] = n;
    };
    const folders = this.dirLower.length;
    const touched =
      this.touchedFolders.length < folders ? (this.touchedFolders = new Int32Array(folders)) : this.touchedFolders;
    let touchedCount = 0;
    const lookAt = (d: number) => {
      folderSeen[d] = 1;
      touched[touchedCount++] = d;
      this.folderTails(d, fq, folderParts(d), bounds, tail, stride, cap);
    };
    // Candidates in most folders (a keystroke that starts from every entry): all folders in folder
    // order, the per-folder arrays read front to back, rather than each at its first candidate,
    // which at a million entries is a cache miss or more a folder.
    if (count > 4 * folders) for (let d = 0; d < folders; d++) lookAt(d);
    const top = this.firstBounds(fq, count, lookAt, tail, stride, cap, head, last, keys);
    for (let t = 0; t < touchedCount; t++) folderSeen[touched[t]!] = 0;
    let fuzzy = 0;
    for (let b = top; b >= 0; b--) {
      // Everything left is below the worst kept score (the lowest bound holds those below 0 too).
      const bucketBound = keys.boundOf(b);
      if (bucketBound > 0 && bucketBound < heap.floor()) break;
      while (head[b] !== -1) {
        const n = head[b]!;
        head[b] = next[n]!;
        const i = out[n]!;
        // A tie with the worst kept score still loses unless the name is shorter or comes first.
        if (heap.rejects(i, entryBound[n]!)) continue;
        const d = this.dirId[i]!;
        // What refining reads of the name, kept for scoring it right after: its tail (scratch
        // holds the positions it found) and its pairs (-1: not read; bit 0 is never a pair).
        let tail0 = -1;
        let pairs = -1;
        if (!refined[n]) {
          refined[n] = 1;
          // Only the splits whose rest of q is in the name in order (the first bound went by classes).
          // (Read in `names`, one string, rather than the entry's own: at a million entries
          // scattered strings cost a cache miss each.)
          const lo = (tail0 = nameTail(fq, this.names, this.nameOffset[i]!, scratch, this.nameEnd(i)));
          if (lo > folderConsumed[d]!) {
            tiers[n] = DROPPED;
            continue;
          }
          // The name's own pairs: its bigram masks can hold a pair it lacks (a shared bucket).
          let precise =
            lo === 0
              ? nameOnlyBound(fq, this.wordStartClasses[i]!, this.nameClasses[i]!, (pairs = this.namePairs(fq, i)))
              : IMPOSSIBLE;
          const from = Math.max(1, lo);
          if (from <= folderConsumed[d]!) precise = Math.max(precise, tail[d * stride + Math.min(from, cap)]!);
          if (precise < entryBound[n]!) {
            entryBound[n] = precise;
            const key = keys.of(precise, i);
            if (key < b) {
              enqueue(n, key);
              continue;
            }
          }
          if (heap.rejects(i, precise)) continue;
        }
        folderParts(d);
        nameBounds(
          fq,
          this.wordStartClasses[i]!,
          this.nameClasses[i]!,
          pairs === -1 ? this.namePairs(fq, i) : pairs,
          bounds,
        );
        const score = this.entryScore(i, fq, splits, bounds, scratch, heap, tail0);
        // Past MAX_FUZZY_QUERY characters the rest must still be a subsequence.
        if (score === IMPOSSIBLE || (q.length > m && !this.isFuzzy(i, q))) {
          tiers[n] = DROPPED;
          continue;
        }
        tiers[n] = Tier.Fuzzy;
        fuzzy++;
        if (score !== BELOW) heap.offer(i, score);
      }
    }
    const { ids: order, scores } = heap.drain();
    const ranges = order.map((i) => {
      folderParts(this.dirId[i]!);
      nameBounds(fq, this.wordStartClasses[i]!, this.nameClasses[i]!, this.namePairs(fq, i), bounds);
      this.entryScore(i, fq, splits, bounds, scratch);
      return this.splitRanges(i, fq, this.bestSplit, scratch);
    });
    return { matched: fuzzy, order, scores, ranges };
  }

  /** The name ranges split s of entry i matches (nothing when all of q is in the folder). */
  private splitRanges(i: number, fq: FuzzyQuery, split: number, scratch: NameScratch): [number, number][] {
    if (split < 0 || split >= fq.m) return [];
    const ns = this.nameOffset[i]!;
    nameSplit(fq, this.names, this.namesOriginal, ns, split, scratch);
    return mergeRanges(Array.from(scratch.positions.subarray(split, fq.m), (p) => p - ns));
  }

  /**
   * The fuzzy tier's first look at each PENDING candidate among the first `count` of the scratch
   * lists: DROPPED when no split can fit, else its first bound into entryBound and itself into the
   * bucket queue (`head`, `last`, entryOrder; bounds below 0 in bucket 0, none above the last).
   * The candidate's own masks bound all of q in its name; its folder's `tail` (worked out by
   * `lookAt` the first time) the other splits. Returns the highest bucket used. A loop over tens of
   * thousands of candidates a keystroke: every array it reads is a local.
   */
  private firstBounds(
    fq: FuzzyQuery,
    count: number,
    lookAt: (d: number) => void,
    tail: Int32Array,
    stride: number,
    cap: number,
    head: Int32Array,
    last: Int32Array,
    keys: BucketKeys,
  ): number {
    const {
      scratch: out,
      tierBuffer: tiers,
      dirId,
      nameClasses,
      nameTwice,
      nameLength,
      wordStartClasses,
      nameBigramsLow,
      nameBigramsHigh,
      folderSeen,
      folderConsumed,
      entryBound,
    } = this;
    const { entryRefined: refined, entryOrder: next } = this;
    const m = fq.m;
    const { lengths, highestBound } = keys;
    let top = 0;
    for (let n = 0; n < count; n++) {
      if (tiers[n] !== PENDING) continue;
      const i = out[n]!;
      const d = dirId[i]!;
      if (folderSeen[d] === 0) lookAt(d);
      // Splits before `first` leave the name a class it lacks (or holds once where the rest has it
      // twice: `zz` is not in a name with one z), or more characters than it has (a
      // long query of one letter must not cost a full bound per file); past the folder's reach,
      // nothing fits.
      const classes = nameClasses[i]!;
      const first = Math.max(fq.firstSplit(classes, nameTwice[i]!), m - nameLength[i]!);
      const consumed = folderConsumed[d]!;
      if (first > consumed) {
        tiers[n] = DROPPED;
        continue;
      }
      let bound =
        first === 0
          ? nameOnlyBound(fq, wordStartClasses[i]!, classes, fq.pairsInMasks(nameBigramsLow[i]!, nameBigramsHigh[i]!))
          : IMPOSSIBLE;
      const from = first === 0 ? 1 : first;
      if (from <= consumed) {
        const folderBound = tail[d * stride + (from < cap ? from : cap)]!;
        if (folderBound > bound) bound = folderBound;
      }
      if (!possible(bound)) {
        tiers[n] = DROPPED;
        continue;
      }
      entryBound[n] = bound;
      refined[n] = 0;
      const length = nameLength[i]!;
      const key =
        (bound <= 0 ? 0 : bound < highestBound ? bound : highestBound) * lengths +
        (length < lengths ? lengths - 1 - length : 0);
      next[n] = -1;
      if (head[key] === -1) head[key] = n;
      else next[last[key]!] = n;
      last[key] = n;
      if (key > top) top = key;
    }
    return top;
  }

  /**
   * Folder d's first look for the fuzzy tier: how much of q it holds (folderConsumed) and, into
   * `tail`, the best of its splits from each t on with its names' masks OR-ed (see tailBounds).
   */
  private folderTails(
    d: number,
    fq: FuzzyQuery,
    splits: FolderSplits,
    bounds: Int32Array,
    tail: Int32Array,
    stride: number,
    cap: number,
  ): void {
    const m = fq.m;
    this.folderConsumed[d] = splits.consumed;
    // No split leaves a name in this folder more characters than its longest name has.
    if (m - this.dirLongestName[d]! <= splits.consumed) {
      nameBounds(
        fq,
        this.dirNameStarts[d]!,
        this.dirNameClasses[d]!,
        fq.pairsInMasks(this.dirNameBigramsLow[d]!, this.dirNameBigramsHigh[d]!),
        bounds,
      );
      tailBounds(splits, bounds, m, tail, d * stride, cap);
    } else tailBounds(splits, undefined, m, tail, d * stride, cap);
  }

  /**
   * Takes this keystroke into the caller's folder cache (see FolderCache.extendAll), for the folders
   * of `from` only when the caller narrowed to few entries for the folders there are: until the query
   * stops extending, its candidates never leave those folders (and then the cache starts over).
   */
  private warmFolders(q: string, state: SearchState, from: Int32Array | undefined): void {
    const cache = this.folderCache(state);
    if (!cache.prepare(q)) return;
    if (from && from.length < 4 * cache.folders) cache.extendFoldersOf(new FuzzyQuery(q), from, this.dirId);
    else cache.extendAll(new FuzzyQuery(q));
  }

  private readonly folderCaches: { owner: SearchState; cache: FolderCache; used: number }[] = [];
  private clock = 0;

  /** The caller's folder cache: its own while it types, else the one used longest ago, reset. */
  private folderCache(state: SearchState): FolderCache {
    let held = this.folderCaches.find((c) => c.owner === state);
    if (!held) {
      if (this.folderCaches.length < FOLDER_CACHES)
        this.folderCaches.push(
          (held = {
            owner: state,
            cache: new FolderCache(this.dirsJoined, this.dirsOriginalJoined, this.dirOffset, this.dirClasses),
            used: 0,
          }),
        );
      else {
        held = this.folderCaches.reduce((a, b) => (a.used <= b.used ? a : b));
        held.owner = state;
        held.cache.reset();
      }
    }
    held.used = ++this.clock;
    return held.cache;
  }

  /** Which split entryScore took last (for highlights). */
  private bestSplit = 0;

  /**
   * Entry i's fuzzy score: the best of its splits (the folder part from `splits`, of its folder,
   * the name part read here), IMPOSSIBLE when q is no subsequence of its path. `bounds` are the
   * entry's name bounds: a split that cannot beat the best so far, or (given `heap`) make the list,
   * is not read; BELOW when it matches but no split can make the list. `tail`: what nameTail gave
   * for this entry when scratch still holds it (-1: read it here).
   */
  private entryScore(
    i: number,
    fq: FuzzyQuery,
    splits: FolderSplits,
    bounds: Int32Array,
    scratch: NameScratch,
    heap?: FuzzyHeap,
    tail = -1,
  ): number {
    const m = fq.m;
    const ns = this.nameOffset[i]!;
    const lo = tail === -1 ? nameTail(fq, this.names, ns, scratch, this.nameEnd(i)) : tail;
    const hi = Math.min(splits.consumed, m);
    if (lo > hi) return IMPOSSIBLE;
    let best = BELOW;
    this.bestSplit = -1;
    // From the split with most of q in the name, usually the best: the others rarely need reading.
    for (let s = lo; s <= hi; s++) {
      let total: number;
      if (s === m) total = splits.z;
      else {
        const bound = splits.bound(s, m, bounds[s]!);
        if (bound <= best || heap?.rejects(i, bound)) continue;
        const name = nameSplit(fq, this.names, this.namesOriginal, ns, s, scratch);
        total = splits.total(s, m, name, scratch.first);
      }
      if (total > best) {
        best = total;
        this.bestSplit = s;
      }
    }
    return best;
  }

  /**
   * The tier of each candidate (PENDING for none yet) into the scratch lists, counted by tier in
   * `counts`; returns how many. The name tiers come from scanNames, the path tiers from scanFolders
   * (and, for a query with `/`, across the folder's end into the name: see folderFirst), so a
   * candidate costs a few typed-array reads: at a million paths this loop is much of a keystroke.
   */
  private tiersFromScan(
    q: string,
    from: Int32Array | undefined,
    candidates: number,
    nameTiers: Uint8Array,
    hasSlash: boolean,
    counts: Int32Array,
  ): number {
    const { anyClasses, dirId, dirFirst, dirLower, hasOther } = this;
    const qClasses = queryClasses(q);
    const out = this.scratch;
    const tiers = this.tierBuffer;
    let count = 0;
    for (let n = 0; n < candidates; n++) {
      const i = from ? from[n]! : n;
      if ((anyClasses[i]! & qClasses) !== qClasses) continue;
      let tier = nameTiers[i]!;
      if (tier === NONE) {
        const d = dirId[i]!;
        let first = dirFirst[d]!;
        if (first === UNKNOWN) dirFirst[d] = first = dirLower[d]!.indexOf(q);
        // Across the folder's end only where the folder ends with one of q's heads (few do).
        if (first === -1 && hasSlash && (this.folderEnds(d) !== 0 || this.heads.length === MAX_HEADS))
          first = this.folderFirst(i, q, true);
        if (first !== -1) tier = first === 0 ? Tier.PathPrefix : Tier.PathSubstring;
        else tier = hasOther[i] && this.other.get(i)!.indexOf(q) !== -1 ? Tier.Other : PENDING;
      }
      out[count] = i;
      tiers[count++] = tier;
      if (tier !== PENDING) counts[tier]!++;
    }
    return count;
  }

  /** The same for one-character queries and few candidates, a tier function per candidate. */
  private tiersOneByOne(
    q: string,
    from: Int32Array | undefined,
    candidates: number,
    oneChar: boolean,
    counts: Int32Array,
  ): number {
    const out = this.scratch;
    const tiers = this.tierBuffer;
    const qClasses = queryClasses(q);
    const [bigramsLow, bigramsHigh] = queryBigrams(q);
    const code = q.charCodeAt(0);
    const hasSlash = q.includes("/");
    let count = 0;
    for (let n = 0; n < candidates; n++) {
      const i = from ? from[n]! : n;
      if ((this.anyClasses[i]! & qClasses) !== qClasses) continue;
      const tier = oneChar
        ? this.charTier(i, q, code, qClasses)
        : this.realTier(i, q, hasSlash, qClasses, bigramsLow, bigramsHigh);
      out[count] = i;
      if (tier === NO_MATCH) tiers[count++] = PENDING;
      else {
        tiers[count++] = tier;
        counts[tier]!++;
      }
    }
    return count;
  }

  /**
   * A one-character query: the candidates whose name is that character or starts with it, into
   * nameMatches in catalog order (their tiers in nameTierBuffer). Two typed arrays are read per
   * entry. Returns how many.
   */
  private firstCharMatches(code: number, from: Int32Array | undefined): number {
    const tiers = this.nameTierBuffer;
    const matches = this.nameMatches;
    const firstNameCode = this.firstNameCode;
    const candidates = from ? from.length : this.size;
    let count = 0;
    for (let n = 0; n < candidates; n++) {
      const i = from ? from[n]! : n;
      if (firstNameCode[i] !== code) continue;
      tiers[i] = this.nameLength[i] === 1 ? Tier.Exact : Tier.NamePrefix;
      matches[count++] = i;
    }
    return count;
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

  /** The length of entry i's name as ranked (lower case): fuzzy ties go to the shorter. */
  nameLengthOf(i: number): number {
    return this.nameLength[i]!;
  }

  /** How well `query` matches entry `i` as a fuzzy subsequence (higher is better), or -Infinity. */
  fuzzyScore(i: number, query: string): number {
    const score = this.scoreOne(i, query).score;
    return possible(score) ? score : -Infinity;
  }

  /** One entry's fuzzy score, the split it came from and the scratch holding that split's name positions. */
  private scoreOne(i: number, query: string): { score: number; split: number; fq: FuzzyQuery; scratch: NameScratch } {
    const fq = new FuzzyQuery(
      lowerKeepingLength(query.length > MAX_FUZZY_QUERY ? query.slice(0, MAX_FUZZY_QUERY) : query),
    );
    const d = this.dirId[i]!;
    const splits = new FolderSplits(fq.m).compute(fq, this.dirLower[d]!, this.dirOriginal[d]!);
    const bounds = new Int32Array(fq.m);
    const scratch = new NameScratch(fq.m);
    nameBounds(fq, this.wordStartClasses[i]!, this.nameClasses[i]!, this.namePairs(fq, i), bounds);
    const score = this.entryScore(i, fq, splits, bounds, scratch);
    return { score, split: this.bestSplit, fq, scratch };
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

  /** Clears the per-folder memo for a new query and splits the query at its `/` once. */
  private resetFolderMemo(q: string): void {
    this.dirFirst.fill(UNKNOWN);
    this.dirConsumed.fill(UNKNOWN);
    this.heads.length = 0;
    this.rests.length = 0;
    if (this.suffixClasses.length <= q.length) this.suffixClasses = new Int32Array(q.length + 1);
    const suffix = this.suffixClasses;
    suffix[q.length] = 0;
    for (let k = q.length - 1; k >= 0; k--) suffix[k] = suffix[k + 1]! | (1 << charClass(q.charCodeAt(k)));
    if (!q.includes("/")) return;
    this.dirHeads.fill(UNKNOWN);
    // A `/` as the last character leaves no rest: that case is the folder's own indexOf.
    for (
      let j = q.indexOf("/");
      j !== -1 && j < q.length - 1 && this.heads.length < MAX_HEADS;
      j = q.indexOf("/", j + 1)
    ) {
      this.heads.push(q.slice(0, j + 1));
      this.rests.push(q.slice(j + 1));
    }
  }

  /** Every tier but fuzzy. */
  private realTier(
    i: number,
    q: string,
    hasSlash: boolean,
    qClasses: number,
    bigramsLow: number,
    bigramsHigh: number,
  ): number {
    const inName =
      !hasSlash &&
      (this.nameClasses[i]! & qClasses) === qClasses &&
      (this.nameBigramsLow[i]! & bigramsLow) === bigramsLow &&
      (this.nameBigramsHigh[i]! & bigramsHigh) === bigramsHigh;
    const name = inName ? this.nameText(i) : "";
    let at = inName ? name.indexOf(q) : -1;
    if (at === -1) {
      const first = this.folderFirst(i, q, hasSlash);
      if (first !== -1) return first === 0 ? Tier.PathPrefix : Tier.PathSubstring;
      return this.hasOther[i] && this.other.get(i)!.indexOf(q) !== -1 ? Tier.Other : NO_MATCH;
    }
    if (at === 0) return this.nameLength[i] === q.length ? Tier.Exact : Tier.NamePrefix;
    const mask = this.wordMask[i]!;
    while (at !== -1) {
      if (at < 32 ? (mask >>> at) & 1 : wordStartAt(this.namesOriginal, this.nameOffset[i]! + at))
        return Tier.NameWordStart;
      at = name.indexOf(q, at + 1);
    }
    return Tier.NameSubstring;
  }

  /**
   * The name tier of every entry, from one pass over all names: occurrences come in catalog order,
   * so a forward-only pointer finds each one's entry. Linear in memory, unlike one search per name.
   */
  private scanNames(q: string, hasSlash: boolean, state: SearchState): Uint8Array {
    const tiers = this.nameTierBuffer.fill(NONE);
    this.nameMatchCount = 0;
    // Names never contain "/": such a query can only match in the folder part.
    if (hasSlash) return tiers;
    const names = this.names;
    const offsets = this.nameOffset;
    const matches = this.nameMatches;
    const found = (state.occurrences = occurrences(names, q, state.occurrences)).at;
    let matched = 0;
    let entry = 0;
    // Few occurrences: find each one's entry by bisection; many: walk the offsets once.
    const bisect = found.length * 20 < this.size;
    for (const at of found) {
      if (bisect) entry = this.entryAt(at);
      else while (entry + 1 < this.size && offsets[entry + 1]! <= at) entry++;
      const k = at - offsets[entry]!;
      const current = tiers[entry]!;
      if (current === NONE) matches[matched++] = entry;
      if (current <= Tier.NameWordStart) continue;
      let tier: number;
      if (k === 0) tier = this.nameLength[entry] === q.length ? Tier.Exact : Tier.NamePrefix;
      else if (k < 32 ? (this.wordMask[entry]! >>> k) & 1 : wordStartAt(this.namesOriginal, at))
        tier = Tier.NameWordStart;
      else tier = Tier.NameSubstring;
      if (tier < current) tiers[entry] = tier;
    }
    this.nameMatchCount = matched;
    return tiers;
  }

  /** Which of q's pairs entry i's name holds (see FuzzyQuery.pairsInText). */
  private namePairs(fq: FuzzyQuery, i: number): number {
    return fq.pairsInText(this.names, this.nameOffset[i]!, this.nameEnd(i));
  }

  /** Entry i's name, lower case (a slice of `names`: read it there where a keystroke reads many). */
  private nameText(i: number): string {
    return this.names.slice(this.nameOffset[i]!, this.nameEnd(i));
  }

  /** Where entry i's name ends in `names`. */
  private nameEnd(i: number): number {
    return i + 1 < this.size ? this.nameOffset[i + 1]! - 1 : this.names.length;
  }

  /** The entry whose name holds position `at` of `names`. */
  private entryAt(at: number): number {
    return lastAtOrBefore(this.nameOffset, this.size, at);
  }

  /**
   * Where q first occurs in each folder (dirFirst; -1: nowhere), from one search of all folders
   * joined (or of where the caller's last query occurred, when q extends it): a per-folder
   * `indexOf` costs more to set up than to run, and a million paths have some 80 thousand folders.
   */
  private scanFolders(q: string, state: SearchState): void {
    const found = (state.folderOccurrences = occurrences(this.dirsJoined, q, state.folderOccurrences)).at;
    const first = this.dirFirst.fill(-1);
    const offsets = this.dirOffset;
    const folders = this.dirLower.length;
    const bisect = found.length * 20 < folders;
    let d = 0;
    for (const at of found) {
      if (bisect) d = lastAtOrBefore(offsets, folders, at);
      else while (d + 1 < folders && offsets[d + 1]! <= at) d++;
      if (first[d] === -1) first[d] = at - offsets[d]!;
    }
  }

  /** A one-character query whose character has a class of its own: the masks decide, no string is read. */
  private charTier(i: number, q: string, code: number, bit: number): number {
    if (this.nameClasses[i]! & bit) {
      if (this.firstNameCode[i] === code) return this.nameLength[i] === 1 ? Tier.Exact : Tier.NamePrefix;
      return this.wordStartClasses[i]! & bit ? Tier.NameWordStart : Tier.NameSubstring;
    }
    const first = this.folderFirst(i, q, code === 47);
    if (first !== -1) return first === 0 ? Tier.PathPrefix : Tier.PathSubstring;
    return Tier.Other;
  }

  /**
   * Where q occurs in the path outside the name: inside the folder part (searched once per
   * folder), or, for a query with a `/`, across the folder's last `/` (the folder ends with the
   * part up to a `/` of q, the name starts with the rest). Returns 0 for a match at the start,
   * a positive position otherwise, or -1.
   */
  private folderFirst(i: number, q: string, hasSlash: boolean): number {
    const d = this.dirId[i]!;
    let first = this.dirFirst[d]!;
    if (first === UNKNOWN) this.dirFirst[d] = first = this.dirLower[d]!.indexOf(q);
    if (first !== -1 || !hasSlash) return first;
    const dir = this.dirLower[d]!;
    const { heads, rests } = this;
    let ends = this.folderEnds(d);
    // Heads in order of their `/`, as the query reads: the first that fits decides the position.
    for (let h = 0; ends !== 0; h++, ends >>>= 1) {
      if (ends & 1 && this.names.startsWith(rests[h]!, this.nameOffset[i]!)) return dir.length - heads[h]!.length;
    }
    if (heads.length === MAX_HEADS) return this.folderFirstPastHeads(i, q, dir);
    return -1;
  }

  /** Which of the query's heads folder d ends with, one bit each (memoised per keystroke). */
  private folderEnds(d: number): number {
    let ends = this.dirHeads[d]!;
    if (ends === UNKNOWN) {
      ends = 0;
      // Read in all folders joined, not each folder's own string: a query's first look at some 80
      // thousand folders in order reads one string front to back instead of as many scattered ones.
      const end = d + 1 < this.dirOffset.length ? this.dirOffset[d + 1]! - 1 : this.dirsJoined.length;
      const start = this.dirOffset[d]!;
      for (let h = 0; h < this.heads.length; h++) {
        const head = this.heads[h]!;
        if (end - start >= head.length && this.dirsJoined.startsWith(head, end - head.length)) ends |= 1 << h;
      }
      this.dirHeads[d] = ends;
    }
    return ends;
  }

  /** The rare query with more than MAX_HEADS `/`: its later heads, without a memo. */
  private folderFirstPastHeads(i: number, q: string, dir: string): number {
    let j = -1;
    for (let h = 0; h < MAX_HEADS; h++) j = q.indexOf("/", j + 1);
    for (j = q.indexOf("/", j + 1); j !== -1 && j < q.length - 1; j = q.indexOf("/", j + 1)) {
      const head = q.slice(0, j + 1);
      if (dir.endsWith(head) && this.names.startsWith(q.slice(j + 1), this.nameOffset[i]!))
        return dir.length - head.length;
    }
    return -1;
  }

  /** Subsequence of the path: as much of q as the folder takes (once per folder), the rest in the name. */
  private isFuzzy(i: number, q: string): boolean {
    const d = this.dirId[i]!;
    let consumed = this.dirConsumed[d]!;
    if (consumed === UNKNOWN) this.dirConsumed[d] = consumed = subsequencePrefix(this.dirLower[d]!, q, 0, 0);
    if (consumed === q.length) return true;
    // The name must hold every class of what the folder left over before it is walked.
    const rest = this.suffixClasses[consumed]!;
    if ((this.nameClasses[i]! & rest) !== rest) return false;
    // Walked in `names`, not the entry's own string: candidates come in catalog order, so this
    // reads one string front to back instead of a million scattered ones.
    const names = this.names;
    const end = this.nameEnd(i);
    let at = this.nameOffset[i]!;
    for (let k = consumed; k < q.length; k++) {
      at = names.indexOf(q[k]!, at);
      if (at === -1 || at >= end) return false;
      at++;
    }
    return true;
  }
}

/**
 * The bucket queue's keys: a bound, then a name length (shorter first), for the order the heap
 * breaks ties in: once it holds the shortest names of the best bound, every longer one of that
 * bound is turned away on its bound alone, unread (a query like `idx` has tens of thousands of
 * `index…` names that score the same). Names longer than the lengths kept share the last slot
 * (still first in first out); a long query's many bounds get fewer length slots, so the queue
 * stays small.
 */
class BucketKeys {
  static readonly MOST = 1 << 17;
  readonly highestBound: number;
  readonly lengths: number;
  readonly buckets: number;

  constructor(
    maxBound: number,
    private readonly nameLength: Uint16Array,
  ) {
    this.highestBound = maxBound;
    this.lengths = Math.max(1, Math.min(64, Math.floor(BucketKeys.MOST / (maxBound + 1))));
    this.buckets = (maxBound + 1) * this.lengths;
  }

  of(bound: number, i: number): number {
    const length = this.nameLength[i]!;
    return (
      (bound <= 0 ? 0 : bound < this.highestBound ? bound : this.highestBound) * this.lengths +
      (length < this.lengths ? this.lengths - 1 - length : 0)
    );
  }

  boundOf(key: number): number {
    return Math.floor(key / this.lengths);
  }
}

/** Kept for the module's life, as mention-fuzzy's KEPT_SHAPES are (see there). */
export const KEPT_BUCKET_KEYS = new BucketKeys(1, new Uint16Array(1));

function queryClasses(q: string): number {
  return classMask(q);
}

function queryBigrams(q: string): [number, number] {
  return bigramMask(q, 0);
}

/**
 * For each split t from 1 to what the folder holds, the best bound of the splits from t on (the
 * folder part with upper bounds of the name part; none: no name fits) into tail[at + t]; from
 * `cap` on, one slot.
 */
function tailBounds(
  splits: FolderSplits,
  bounds: Int32Array | undefined,
  m: number,
  tail: Int32Array,
  at: number,
  cap: number,
): void {
  let best = IMPOSSIBLE;
  for (let s = Math.min(splits.consumed, m); s >= 1; s--) {
    // Without name bounds, only all of q in the folder fits.
    if (s === m || (bounds && possible(bounds[s]!))) best = Math.max(best, splits.bound(s, m, s < m ? bounds![s]! : 0));
    tail[at + Math.min(s, cap)] = best;
  }
}

/**
 * Where q occurs in `text`, ascending: within `last`'s occurrences when q extends its query (a
 * longer string occurs only where its prefix does), else from one pass over all of it.
 */
function occurrences(text: string, q: string, last: Occurrences | undefined): Occurrences {
  if (last && q.startsWith(last.query)) {
    // Only the characters q adds need comparing (hundreds of thousands of places at a million paths).
    const known = last.query.length;
    const kept = new Int32Array(last.at.length);
    let count = 0;
    next: for (const at of last.at) {
      for (let k = known; k < q.length; k++) if (text.charCodeAt(at + k) !== q.charCodeAt(k)) continue next;
      kept[count++] = at;
    }
    return { query: q, at: kept.slice(0, count) };
  }
  let found = new Int32Array(1024);
  let count = 0;
  for (let at = text.indexOf(q); at !== -1; at = text.indexOf(q, at + 1)) {
    if (count === found.length) {
      const grown = new Int32Array(2 * count);
      grown.set(found);
      found = grown;
    }
    found[count++] = at;
  }
  return { query: q, at: found.slice(0, count) };
}

/** The last k < size with offsets[k] <= at (offsets ascending, offsets[0] <= at). */
function lastAtOrBefore(offsets: Int32Array, size: number, at: number): number {
  let lo = 0;
  let hi = size - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The best any split from `from` on allows, from the folder part and upper bounds of the name part. */
function bestBound(splits: FolderSplits, bounds: Int32Array, m: number, from = 0): number {
  let best = IMPOSSIBLE;
  const hi = Math.min(splits.consumed, m);
  for (let s = from; s <= hi; s++) {
    if (s < m && !possible(bounds[s]!)) continue;
    const bound = splits.bound(s, m, s < m ? bounds[s]! : 0);
    if (bound > best) best = bound;
  }
  return best;
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
