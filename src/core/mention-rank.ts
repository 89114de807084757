// Ranking for the composer's @ popup (spec rules 8 to 13). Pure and dependency-free, so the
// server and the webview rank the same way.
//
// Tiers, best first: exact name; name prefix; name word start (after / _ . - : or a camelCase
// hump); name substring; path prefix; path substring; other search text (tags, descriptions);
// fuzzy subsequence of the path (which covers the name). Case-insensitive. Ties keep catalog order;
// inside the fuzzy tier, matches are ordered by match quality first (see fuzzyAlign).

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
/** Fuzzy scoring looks at this many query characters at most (the contract caps q at 500). */
const MAX_FUZZY_QUERY = 512;
/** A query's `/` heads memoised per folder, one bit each (a signed 32-bit mask keeps 31). */
const MAX_HEADS = 31;

export type IndexEntry = {
  /** What is searched as the path; for non-file items, the label itself. */
  path: string;
  /** Where the name starts inside `path` (the file name after the last `/`; 0 for labels). */
  nameStart: number;
  /** Other search text: tags, descriptions. */
  other?: string;
};

const SEPARATORS = "/_.-: ";
// Unicode-aware case tests (Ü is a hump too); they run when the index is built, not per keystroke.
const isUpper = (c: string) => c !== c.toLowerCase();
const isLowerOrDigit = (c: string) => c !== c.toUpperCase() || (c >= "0" && c <= "9");

/** A word starts at name position k (k > 0) after a separator or at a camelCase hump. */
function wordStartAt(original: string, index: number): boolean {
  const prev = original[index - 1]!;
  const cur = original[index]!;
  return SEPARATORS.includes(prev) || (isLowerOrDigit(prev) && isUpper(cur));
}

/**
 * Characters fall into 32 classes, one bit each: a to z exactly, the separators `/ _ . -` exactly,
 * and two shared classes (digits, everything else). A mask says which classes a string contains.
 */
const EXACT_CLASSES = 30;
function charClass(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code === 47) return 26; // "/"
  if (code === 95) return 27; // "_"
  if (code === 46) return 28; // "."
  if (code === 45) return 29; // "-"
  if (code >= 48 && code <= 57) return 30;
  return 31;
}

// Masks are kept as signed 32-bit values: `&` yields a signed result, so comparing `(a & m) === m`
// only works when m is signed too (bit 31, the class of "other" characters, would break it).
function classMask(lower: string, from = 0): number {
  let mask = 0;
  for (let k = from; k < lower.length; k++) mask |= 1 << charClass(lower.charCodeAt(k));
  return mask | 0;
}

/** Adjacent pairs hashed into 64 buckets (two words): a name without one of q's pairs cannot contain q. */
function bigramBucket(a: number, b: number): number {
  return (charClass(a) * 37 + charClass(b)) & 63;
}

function bigramMask(lower: string, from: number): [number, number] {
  let low = 0;
  let high = 0;
  for (let k = from + 1; k < lower.length; k++) {
    const bucket = bigramBucket(lower.charCodeAt(k - 1), lower.charCodeAt(k));
    if (bucket < 32) low |= 1 << bucket;
    else high |= 1 << (bucket - 32);
  }
  return [low | 0, high | 0];
}

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

/** What one client typed last and what matched it: the next keystroke that extends it narrows from it. */
export type SearchState = { query?: string; matches?: Int32Array };

/**
 * The searchable form of a list of entries, built once per scan, so that a keystroke never
 * re-derives anything per entry: lower-cased paths, name offsets, character-class masks of the
 * path, the name and its word starts, a bigram mask of the name, and the folder of each entry
 * (files share folders, so the folder part is searched once per folder and keystroke).
 *
 * A keystroke looks only at the previous query's matches when the query grew (a longer query's
 * matches, real or fuzzy, are a subset of its prefix's); that state belongs to the caller (one per
 * client), so two people typing at once never undo each other's narrowing. Real tiers come out in
 * catalog order; fuzzy matches are scored (word starts and camelCase humps, contiguous runs, few
 * and short gaps, matches in the name) and only the best `limit` are kept, with a bounded heap.
 */
export class MentionIndex {
  readonly size: number;
  private readonly paths: string[];
  private readonly lower: string[];
  private readonly nameStart: Int32Array;
  private readonly firstNameCode: Uint16Array;
  private readonly nameLength: Uint16Array;
  /** Bit k set: name position k (k < 32) starts a word. */
  private readonly wordMask: Uint32Array;
  private readonly wordStartClasses: Uint32Array;
  private readonly nameClasses: Uint32Array;
  /** Classes in the path and the other text: every tier needs all of the query's. */
  private readonly anyClasses: Uint32Array;
  private readonly nameBigramsLow: Uint32Array;
  private readonly nameBigramsHigh: Uint32Array;
  private readonly other: (string | undefined)[];
  private readonly hasOther: Uint8Array;
  /** All lower-cased names in catalog order, joined by newlines, and where each one starts. */
  private names = "";
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
  private readonly dirLower: string[] = [];
  private dirFirst = new Int32Array(0);
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
  private readonly positions = new Int32Array(MAX_FUZZY_QUERY);
  private readonly latest = new Int32Array(MAX_FUZZY_QUERY);
  private readonly candidate = new Int32Array(MAX_FUZZY_QUERY);
  /** The narrowing state of callers that do not keep their own. */
  private readonly sharedState: SearchState = {};

  constructor(entries: readonly IndexEntry[], deferred = false) {
    const size = (this.size = entries.length);
    this.paths = new Array(size);
    this.lower = new Array(size);
    this.other = new Array(size).fill(undefined);
    this.nameStart = new Int32Array(size);
    this.firstNameCode = new Uint16Array(size);
    this.nameLength = new Uint16Array(size);
    this.wordMask = new Uint32Array(size);
    this.wordStartClasses = new Uint32Array(size);
    this.nameClasses = new Uint32Array(size);
    this.anyClasses = new Uint32Array(size);
    this.nameBigramsLow = new Uint32Array(size);
    this.nameBigramsHigh = new Uint32Array(size);
    this.dirId = new Int32Array(size);
    this.scratch = new Int32Array(size);
    this.tierBuffer = new Uint8Array(size);
    this.nameOffset = new Int32Array(size);
    this.hasOther = new Uint8Array(size);
    this.nameTierBuffer = new Uint8Array(size);
    this.nameMatches = this.scratch;
    this.entries = entries;
    this.nameParts = new Array(size);
    if (deferred) return;
    this.fill(0, size);
    this.finish();
  }

  /**
   * Builds the index a slice at a time, calling `pause` between slices (a worker answers other
   * requests meanwhile); the index is usable once the promise resolves.
   */
  static async build(entries: readonly IndexEntry[], pause: () => Promise<void>, slice = 25_000): Promise<MentionIndex> {
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
  private nextOffset = 0;
  private readonly dirIds = new Map<string, number>();

  private fill(from: number, to: number): void {
    const entries = this.entries!;
    const nameParts = this.nameParts!;
    const dirIds = this.dirIds;
    let offset = this.nextOffset;
    for (let i = from; i < to; i++) {
      const { path, nameStart: ns, other } = entries[i]!;
      const lower = path.toLowerCase();
      this.paths[i] = path;
      // Most paths are lower case already: share the string instead of holding a copy.
      this.lower[i] = lower === path ? path : lower;
      this.nameStart[i] = ns;
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
      const otherLower = other?.toLowerCase();
      this.other[i] = otherLower;
      this.hasOther[i] = otherLower === undefined ? 0 : 1;
      this.anyClasses[i] = (classMask(lower) | (otherLower === undefined ? 0 : classMask(otherLower))) >>> 0;
      [this.nameBigramsLow[i], this.nameBigramsHigh[i]] = bigramMask(lower, ns);
      const dir = lower.slice(0, ns);
      let id = dirIds.get(dir);
      if (id === undefined) {
        id = this.dirLower.length;
        dirIds.set(dir, id);
        this.dirLower.push(dir);
      }
      this.dirId[i] = id;
      nameParts[i] = lower.slice(ns);
      this.nameOffset[i] = offset;
      offset += lower.length - ns + 1;
    }
    this.nextOffset = offset;
  }

  private finish(): void {
    this.names = this.nameParts!.join("\n");
    this.nameParts = undefined;
    this.entries = undefined;
    this.dirIds.clear();
    this.dirFirst = new Int32Array(this.dirLower.length);
    this.dirConsumed = new Int32Array(this.dirLower.length);
    this.dirHeads = new Int32Array(this.dirLower.length);
  }

  /** The tier of entry `i` for a query (for tests and one-off checks), or -1. */
  tierOf(i: number, query: string): number {
    const q = query.toLowerCase();
    this.resetFolderMemo(q);
    const real = this.realTier(i, q, q.includes("/"), queryClasses(q), ...queryBigrams(q));
    if (real !== NO_MATCH) return real;
    return this.isFuzzy(i, q) ? Tier.Fuzzy : NO_MATCH;
  }

  /**
   * Entry indices ranked for `query`, at most `limit`; `total` counts the matches found (fuzzy
   * ones only when they were looked for, that is when the real tiers left room). `state` is the
   * caller's narrowing state (see SearchState); without one, the index keeps a shared one.
   */
  search(query: string, limit = Infinity, state: SearchState = this.sharedState): { indices: number[]; tiers: number[]; total: number } {
    const q = query.toLowerCase();
    this.resetFolderMemo(q);
    const from = state.query !== undefined && state.matches && q.startsWith(state.query) ? state.matches : undefined;
    const out = this.scratch;
    const tiers = this.tierBuffer;
    const anyClasses = this.anyClasses;
    const counts = new Int32Array(TIERS);
    const qClasses = queryClasses(q);
    const [bigramsLow, bigramsHigh] = queryBigrams(q);
    const code = q.charCodeAt(0);
    const oneChar = q.length === 1 && charClass(code) < EXACT_CLASSES;
    const hasSlash = q.includes("/");
    const candidates = from ? from.length : this.size;
    // Many candidates: find name matches with one sequential scan; few: search each name directly.
    const nameTiers = !oneChar && (hasSlash || candidates > this.size / 8) ? this.scanNames(q, hasSlash) : undefined;
    // When names alone fill the list, no other tier can reach it: answer without looking at each
    // candidate. The narrowing state stays as it was (still a superset of this query's matches).
    const named = oneChar ? this.firstCharMatches(code, from) : nameTiers ? this.nameMatchCount : 0;
    if (named >= limit) {
      state.query = q;
      state.matches = from;
      return this.fromNameMatches(named, limit);
    }
    let count = 0;
    let real = 0;
    for (let n = 0; n < candidates; n++) {
      const i = from ? from[n]! : n;
      if ((anyClasses[i]! & qClasses) !== qClasses) continue;
      const tier = oneChar
        ? this.charTier(i, q, code, qClasses)
        : nameTiers
          ? this.tierFromScan(i, q, hasSlash, nameTiers[i]!)
          : this.realTier(i, q, hasSlash, qClasses, bigramsLow, bigramsHigh);
      // Not a real match: maybe fuzzy (decided below, or left open for the next keystroke).
      out[count] = i;
      if (tier === NO_MATCH) tiers[count++] = PENDING;
      else {
        tiers[count++] = tier;
        counts[tier]!++;
        real++;
      }
    }

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
    if (indices.length < limit && real < count) {
      // Fuzzy matches rank last, best first: each is scored until it cannot make the heap, which keeps
      // the best few.
      const heap = new FuzzyHeap(Math.min(limit - indices.length, count - real), this.nameLength);
      const fq = q.length > MAX_FUZZY_QUERY ? q.slice(0, MAX_FUZZY_QUERY) : q;
      let kept = 0;
      for (let n = 0; n < count; n++) {
        const i = out[n]!;
        if (tiers[n] !== PENDING) {
          out[kept] = i;
          tiers[kept++] = tiers[n]!;
          continue;
        }
        if (!this.isFuzzy(i, q)) continue;
        fuzzy++;
        out[kept] = i;
        tiers[kept++] = Tier.Fuzzy;
        // Once the heap is full, an alignment that cannot reach its worst score stops early.
        const score = fuzzyAlign(this.lower[i]!, this.paths[i]!, fq, this.nameStart[i]!, this.latest, this.candidate, this.positions, heap.floor());
        if (score !== -Infinity) heap.offer(i, score);
      }
      count = kept;
      for (const i of heap.drain()) {
        indices.push(i);
        tierOut.push(Tier.Fuzzy);
      }
    }
    state.query = q;
    state.matches = out.slice(0, count);
    return { indices, tiers: tierOut, total: real + fuzzy };
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
  private fromNameMatches(count: number, limit: number): { indices: number[]; tiers: number[]; total: number } {
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

  /** How well `query` matches entry `i` as a fuzzy subsequence (higher is better), or -Infinity. */
  fuzzyScore(i: number, query: string): number {
    const q = query.length > MAX_FUZZY_QUERY ? query.slice(0, MAX_FUZZY_QUERY).toLowerCase() : query.toLowerCase();
    return fuzzyAlign(this.lower[i]!, this.paths[i]!, q, this.nameStart[i]!, this.latest, this.candidate, this.positions);
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
    if (tier === Tier.Fuzzy) {
      const m = Math.min(q.length, MAX_FUZZY_QUERY);
      if (fuzzyAlign(lower, this.paths[i]!, q.slice(0, m), ns, this.latest, this.candidate, this.positions) === -Infinity) return [];
      return mergeRanges(Array.from(this.positions.subarray(0, m)).filter((p) => p >= ns).map((p) => p - ns));
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
    for (let j = q.indexOf("/"); j !== -1 && j < q.length - 1 && this.heads.length < MAX_HEADS; j = q.indexOf("/", j + 1)) {
      this.heads.push(q.slice(0, j + 1));
      this.rests.push(q.slice(j + 1));
    }
  }

  /** Every tier but fuzzy. */
  private realTier(i: number, q: string, hasSlash: boolean, qClasses: number, bigramsLow: number, bigramsHigh: number): number {
    const ns = this.nameStart[i]!;
    const inName =
      !hasSlash &&
      (this.nameClasses[i]! & qClasses) === qClasses &&
      (this.nameBigramsLow[i]! & bigramsLow) === bigramsLow &&
      (this.nameBigramsHigh[i]! & bigramsHigh) === bigramsHigh;
    let at = inName ? this.lower[i]!.indexOf(q, ns) : -1;
    if (at === -1) {
      const first = this.folderFirst(i, q, hasSlash);
      if (first !== -1) return first === 0 ? Tier.PathPrefix : Tier.PathSubstring;
      return this.hasOther[i] && this.other[i]!.indexOf(q) !== -1 ? Tier.Other : NO_MATCH;
    }
    if (at === ns) return this.nameLength[i] === q.length ? Tier.Exact : Tier.NamePrefix;
    const lower = this.lower[i]!;
    const mask = this.wordMask[i]!;
    while (at !== -1) {
      const k = at - ns;
      if (k < 32 ? (mask >>> k) & 1 : wordStartAt(this.paths[i]!, at)) return Tier.NameWordStart;
      at = lower.indexOf(q, at + 1);
    }
    return Tier.NameSubstring;
  }

  /**
   * The name tier of every entry, from one pass over all names: occurrences come in catalog order,
   * so a forward-only pointer finds each one's entry. Linear in memory, unlike one search per name.
   */
  private scanNames(q: string, hasSlash: boolean): Uint8Array {
    const tiers = this.nameTierBuffer.fill(NONE);
    this.nameMatchCount = 0;
    // Names never contain "/": such a query can only match in the folder part.
    if (hasSlash) return tiers;
    const names = this.names;
    const offsets = this.nameOffset;
    const matches = this.nameMatches;
    let matched = 0;
    let entry = 0;
    for (let at = names.indexOf(q); at !== -1; at = names.indexOf(q, at + 1)) {
      while (entry + 1 < this.size && offsets[entry + 1]! <= at) entry++;
      const k = at - offsets[entry]!;
      const current = tiers[entry]!;
      if (current === NONE) matches[matched++] = entry;
      if (current <= Tier.NameWordStart) continue;
      let tier: number;
      if (k === 0) tier = this.nameLength[entry] === q.length ? Tier.Exact : Tier.NamePrefix;
      else if (k < 32 ? (this.wordMask[entry]! >>> k) & 1 : wordStartAt(this.paths[entry]!, this.nameStart[entry]! + k)) tier = Tier.NameWordStart;
      else tier = Tier.NameSubstring;
      if (tier < current) tiers[entry] = tier;
    }
    this.nameMatchCount = matched;
    return tiers;
  }

  private tierFromScan(i: number, q: string, hasSlash: boolean, nameTier: number): number {
    if (nameTier !== NONE) return nameTier;
    const first = this.folderFirst(i, q, hasSlash);
    if (first !== -1) return first === 0 ? Tier.PathPrefix : Tier.PathSubstring;
    return this.hasOther[i] && this.other[i]!.indexOf(q) !== -1 ? Tier.Other : NO_MATCH;
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
    let ends = this.dirHeads[d]!;
    if (ends === UNKNOWN) {
      ends = 0;
      for (let h = 0; h < heads.length; h++) if (dir.endsWith(heads[h]!)) ends |= 1 << h;
      this.dirHeads[d] = ends;
    }
    // Heads in order of their `/`, as the query reads: the first that fits decides the position.
    for (let h = 0; ends !== 0; h++, ends >>>= 1) {
      if (ends & 1 && this.names.startsWith(rests[h]!, this.nameOffset[i]!)) return dir.length - heads[h]!.length;
    }
    if (heads.length === MAX_HEADS) return this.folderFirstPastHeads(i, q, dir);
    return -1;
  }

  /** The rare query with more than MAX_HEADS `/`: its later heads, without a memo. */
  private folderFirstPastHeads(i: number, q: string, dir: string): number {
    let j = -1;
    for (let h = 0; h < MAX_HEADS; h++) j = q.indexOf("/", j + 1);
    for (j = q.indexOf("/", j + 1); j !== -1 && j < q.length - 1; j = q.indexOf("/", j + 1)) {
      const head = q.slice(0, j + 1);
      if (dir.endsWith(head) && this.names.startsWith(q.slice(j + 1), this.nameOffset[i]!)) return dir.length - head.length;
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
    const end = i + 1 < this.size ? this.nameOffset[i + 1]! - 1 : names.length;
    let at = this.nameOffset[i]!;
    for (let k = consumed; k < q.length; k++) {
      at = names.indexOf(q[k]!, at);
      if (at === -1 || at >= end) return false;
      at++;
    }
    return true;
  }
}

function queryClasses(q: string): number {
  return classMask(q);
}

function queryBigrams(q: string): [number, number] {
  return bigramMask(q, 0);
}

// Fuzzy match quality, in the manner of fzf's scoring: every matched character scores, more at a
// word start (after `/`, after `_ . - :` or a space, at a camelCase hump), doubled for the first
// query character; a contiguous run keeps the bonus of where it started; gaps cost by length;
// characters in the name score a little more than in the folder.
const SCORE_MATCH = 16;
const GAP_START = 3;
const GAP_EXTENSION = 1;
const BONUS_SLASH = 10;
const BONUS_SEPARATOR = 8;
const BONUS_CAMEL = 7;
const BONUS_CONSECUTIVE = 4;
const BONUS_NAME = 2;
const LOOKAHEAD = 24;

function boundaryBonus(path: string, at: number): number {
  if (at === 0) return BONUS_SLASH;
  const prev = path.charCodeAt(at - 1);
  if (prev === 47) return BONUS_SLASH;
  if (prev === 95 || prev === 46 || prev === 45 || prev === 58 || prev === 32) return BONUS_SEPARATOR;
  const cur = path.charCodeAt(at);
  if (cur < 128 && prev < 128) return cur >= 65 && cur <= 90 && ((prev >= 97 && prev <= 122) || (prev >= 48 && prev <= 57)) ? BONUS_CAMEL : 0;
  const p = path[at - 1];
  const c = path[at];
  return p !== undefined && c !== undefined && isLowerOrDigit(p) && isUpper(c) ? BONUS_CAMEL : 0;
}

/** Where the first alignment stood when it reached `nameFrom`: the name-first one resumes there. */
const resume = { saved: false, cursor: 0, prev: -2, score: 0, chunk: 0 };

/**
 * Forward match of q[k..] from `cursor`, never past `latest[k]` (the last position from which the
 * rest still matches): takes the next occurrence when it continues a run, else the first word start
 * up to `latest[k]`, else the next occurrence. Scores as it goes (see SCORE_MATCH) and returns the
 * score. With `save`, it records its state on reaching `nameFrom` in `resume`; without, it starts
 * q[nameFrom] no earlier than `ns` (the name-first alignment, resumed from that state: up to
 * `nameFrom` both alignments are the same, so that part is neither matched nor scored twice).
 * It gives up (-Infinity) as soon as even the best possible rest could not reach `floor`.
 */
function alignForward(lower: string, path: string, q: string, latest: Int32Array, out: Int32Array, nameFrom: number, ns: number, save: boolean, k: number, cursor: number, prev: number, score: number, chunk: number, floor: number): number {
  const m = q.length;
  for (; k < m; k++) {
    if (k === nameFrom) {
      if (save) {
        resume.saved = true;
        resume.cursor = cursor;
        resume.prev = prev;
        resume.score = score;
        resume.chunk = chunk;
      } else if (cursor < ns) cursor = ns;
    }
    const ch = q[k]!;
    let at = lower.indexOf(ch, cursor);
    let bonus = boundaryBonus(path, at);
    if (at !== prev + 1 && bonus === 0) {
      // A word start a little further on is worth the gap (looked for within a short window).
      const until = Math.min(latest[k]!, at + LOOKAHEAD);
      for (let b = lower.indexOf(ch, at + 1); b !== -1 && b <= until; b = lower.indexOf(ch, b + 1)) {
        const there = boundaryBonus(path, b);
        if (there > 0) {
          at = b;
          bonus = there;
          break;
        }
      }
    }
    // The first character's bonus counts double; a contiguous run keeps the bonus of its start.
    if (k === 0) bonus *= 2;
    if (at === prev + 1) bonus = Math.max(bonus, chunk, BONUS_CONSECUTIVE);
    else {
      if (k > 0) score -= GAP_START + (at - prev - 2) * GAP_EXTENSION;
      chunk = bonus;
    }
    score += SCORE_MATCH + bonus + (at >= ns ? BONUS_NAME : 0);
    out[k] = prev = at;
    cursor = at + 1;
    // Each later character adds at most a match in the name with the best bonus: its own word
    // start (BONUS_SLASH at most) or this run's. Gaps only take away.
    if (score + (m - 1 - k) * (SCORE_MATCH + BONUS_NAME + Math.max(BONUS_SLASH, chunk)) < floor) return -Infinity;
  }
  return score;
}

/**
 * The score of the best of two alignments of q in the path (matched left to right preferring word
 * starts; and the same with as much of q as fits in the name kept there), its positions in
 * `positions`; -Infinity when q is no subsequence of the path.
 */
function fuzzyAlign(lower: string, path: string, q: string, ns: number, latest: Int32Array, candidate: Int32Array, positions: Int32Array, floor = -Infinity): number {
  const m = q.length;
  let at = lower.length;
  let nameFrom = m;
  for (let k = m - 1; k >= 0; k--) {
    at = lower.lastIndexOf(q[k]!, at - 1);
    if (at === -1) return -Infinity;
    latest[k] = at;
    if (at >= ns) nameFrom = k;
  }
  resume.saved = false;
  let best = alignForward(lower, path, q, latest, positions, nameFrom, ns, true, 0, 0, -2, 0, 0, floor);
  // Unless the first alignment already keeps in the name all it can, try the name-first one (not
  // when the first gave up before `nameFrom`: the second would share that hopeless start).
  if (nameFrom < m && resume.saved && positions[nameFrom]! < ns) {
    const score = alignForward(lower, path, q, latest, candidate, nameFrom, ns, false, nameFrom, resume.cursor, resume.prev, resume.score, resume.chunk, floor);
    if (score > best) {
      best = score;
      positions.set(candidate.subarray(nameFrom, m), nameFrom);
    }
  }
  return best;
}

/** The best `capacity` fuzzy matches: higher score, then shorter name, then catalog order. */
class FuzzyHeap {
  private readonly ids: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(
    private readonly capacity: number,
    private readonly nameLength: Uint16Array,
  ) {
    this.ids = new Int32Array(Math.max(0, Math.min(capacity, 1 << 20)));
    this.scores = new Float64Array(this.ids.length);
  }

  /** Whether (a, sa) ranks below (b, sb). */
  private worse(a: number, sa: number, b: number, sb: number): boolean {
    if (sa !== sb) return sa < sb;
    const la = this.nameLength[a]!;
    const lb = this.nameLength[b]!;
    return la !== lb ? la > lb : a > b;
  }

  /** The score a match must reach to be kept (ties are decided by worse()), -Infinity while there is room. */
  floor(): number {
    return this.size < this.ids.length ? -Infinity : this.scores[0]!;
  }

  offer(id: number, score: number): void {
    const { ids, scores } = this;
    if (ids.length === 0) return;
    if (this.size < ids.length) {
      // Sift up: the root holds the worst kept match.
      let k = this.size++;
      while (k > 0) {
        const parent = (k - 1) >> 1;
        if (!this.worse(id, score, ids[parent]!, scores[parent]!)) break;
        ids[k] = ids[parent]!;
        scores[k] = scores[parent]!;
        k = parent;
      }
      ids[k] = id;
      scores[k] = score;
      return;
    }
    if (this.worse(id, score, ids[0]!, scores[0]!)) return;
    this.siftDown(id, score);
  }

  private siftDown(id: number, score: number): void {
    const { ids, scores, size } = this;
    let k = 0;
    for (;;) {
      let child = 2 * k + 1;
      if (child >= size) break;
      if (child + 1 < size && this.worse(ids[child + 1]!, scores[child + 1]!, ids[child]!, scores[child]!)) child++;
      if (!this.worse(ids[child]!, scores[child]!, id, score)) break;
      ids[k] = ids[child]!;
      scores[k] = scores[child]!;
      k = child;
    }
    ids[k] = id;
    scores[k] = score;
  }

  /** The kept matches, best first. */
  drain(): number[] {
    const order = Array.from(this.ids.subarray(0, this.size), (id, k) => [id, this.scores[k]!] as const);
    order.sort((a, b) => (this.worse(a[0], a[1], b[0], b[1]) ? 1 : this.worse(b[0], b[1], a[0], a[1]) ? -1 : 0));
    this.size = 0;
    return order.map(([id]) => id);
  }
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
