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
const UNKNOWN = -2;
const NONE = 255;

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

/**
 * The searchable form of a list of entries, built once per scan, so that a keystroke never
 * re-derives anything per entry: lower-cased paths, name offsets, character-class masks of the
 * path, the name and its word starts, a bigram mask of the name, and the folder of each entry
 * (files share folders, so the folder part is searched once per folder and keystroke).
 *
 * A keystroke ranks the real tiers (everything but fuzzy) over the previous query's real matches
 * when the query grew (a longer query's substring matches are a subset), and looks for fuzzy
 * matches only when the real ones do not fill the requested count, in catalog order, stopping
 * as soon as it has enough.
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
  private readonly names: string;
  private readonly nameOffset: Int32Array;
  /** Per keystroke: the name tier of each entry from one sequential scan of `names` (255: none). */
  private readonly nameTierBuffer: Uint8Array;
  private readonly dirId: Int32Array;
  private readonly dirLower: string[] = [];
  private readonly dirFirst: Int32Array;
  private readonly dirConsumed: Int32Array;
  /** Reused buffers: two for real matches (one keystroke narrows from the other's), their tiers. */
  private readonly buffers: [Int32Array, Int32Array];
  private readonly tierBuffer: Uint8Array;
  private readonly isRealMatch: Uint8Array;
  private last: { query: string; buffer: 0 | 1; count: number } | undefined;

  constructor(entries: readonly IndexEntry[]) {
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
    this.buffers = [new Int32Array(size), new Int32Array(size)];
    this.tierBuffer = new Uint8Array(size);
    this.isRealMatch = new Uint8Array(size);
    this.nameOffset = new Int32Array(size);
    this.hasOther = new Uint8Array(size);
    this.nameTierBuffer = new Uint8Array(size);
    const nameParts: string[] = new Array(size);
    let offset = 0;
    const dirIds = new Map<string, number>();
    for (let i = 0; i < size; i++) {
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
    this.names = nameParts.join("\n");
    this.dirFirst = new Int32Array(this.dirLower.length);
    this.dirConsumed = new Int32Array(this.dirLower.length);
  }

  /** The tier of entry `i` for a query (for tests and one-off checks), or -1. */
  tierOf(i: number, query: string): number {
    const q = query.toLowerCase();
    this.resetFolderMemo();
    const real = this.realTier(i, q, q.includes("/"), queryClasses(q), ...queryBigrams(q));
    if (real !== NO_MATCH) return real;
    return this.isFuzzy(i, q) ? Tier.Fuzzy : NO_MATCH;
  }

  /** Entry indices ranked for `query`, at most `limit`; `total` counts the matches found. */
  search(query: string, limit = Infinity): { indices: number[]; tiers: number[]; total: number } {
    const q = query.toLowerCase();
    this.resetFolderMemo();
    const previous = this.last && q.startsWith(this.last.query) ? this.last : undefined;
    const from = previous ? this.buffers[previous.buffer] : undefined;
    const target: 0 | 1 = previous?.buffer === 0 ? 1 : 0;
    const out = this.buffers[target];
    const tiers = this.tierBuffer;
    const anyClasses = this.anyClasses;
    const counts = new Int32Array(TIERS);
    const qClasses = queryClasses(q);
    const [bigramsLow, bigramsHigh] = queryBigrams(q);
    const code = q.charCodeAt(0);
    const oneChar = q.length === 1 && charClass(code) < EXACT_CLASSES;
    const hasSlash = q.includes("/");
    const candidates = previous ? previous.count : this.size;
    // Many candidates: find name matches with one sequential scan; few: search each name directly.
    const nameTiers = !oneChar && (hasSlash || candidates > this.size / 8) ? this.scanNames(q, hasSlash) : undefined;
    let count = 0;
    for (let n = 0; n < candidates; n++) {
      const i = from ? from[n]! : n;
      if ((anyClasses[i]! & qClasses) !== qClasses) continue;
      const tier = oneChar
        ? this.charTier(i, q, code, qClasses)
        : nameTiers
          ? this.tierFromScan(i, q, hasSlash, nameTiers[i]!)
          : this.realTier(i, q, hasSlash, qClasses, bigramsLow, bigramsHigh);
      if (tier === NO_MATCH) continue;
      out[count] = i;
      tiers[count] = tier;
      counts[tier]!++;
      count++;
    }
    this.last = { query: q, buffer: target, count };

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
    if (indices.length < limit) {
      // Fuzzy matches rank last, in catalog order: look only as far as needed.
      for (let n = 0; n < count; n++) this.isRealMatch[out[n]!] = 1;
      for (let i = 0; i < this.size && indices.length < limit; i++) {
        if (this.isRealMatch[i] || (anyClasses[i]! & qClasses) !== qClasses || !this.isFuzzy(i, q)) continue;
        indices.push(i);
        tierOut.push(Tier.Fuzzy);
        fuzzy++;
      }
      for (let n = 0; n < count; n++) this.isRealMatch[out[n]!] = 0;
    }
    return { indices, tiers: tierOut, total: count + fuzzy };
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

  /** Clears the per-folder memo for a new query. */
  private resetFolderMemo(): void {
    this.dirFirst.fill(UNKNOWN);
    this.dirConsumed.fill(UNKNOWN);
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
    // Names never contain "/": such a query can only match in the folder part.
    if (hasSlash) return tiers;
    const names = this.names;
    const offsets = this.nameOffset;
    let entry = 0;
    for (let at = names.indexOf(q); at !== -1; at = names.indexOf(q, at + 1)) {
      while (entry + 1 < this.size && offsets[entry + 1]! <= at) entry++;
      const k = at - offsets[entry]!;
      const current = tiers[entry]!;
      if (current <= Tier.NameWordStart) continue;
      let tier: number;
      if (k === 0) tier = this.nameLength[entry] === q.length ? Tier.Exact : Tier.NamePrefix;
      else if (k < 32 ? (this.wordMask[entry]! >>> k) & 1 : wordStartAt(this.paths[entry]!, this.nameStart[entry]! + k)) tier = Tier.NameWordStart;
      else tier = Tier.NameSubstring;
      if (tier < current) tiers[entry] = tier;
    }
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
    for (let j = q.indexOf("/"); j !== -1 && j < q.length - 1; j = q.indexOf("/", j + 1)) {
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
    return consumed === q.length || subsequencePrefix(this.lower[i]!, q, consumed, this.nameStart[i]!) === q.length;
  }
}

function queryClasses(q: string): number {
  return classMask(q);
}

function queryBigrams(q: string): [number, number] {
  return bigramMask(q, 0);
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
