// The real tiers of a keystroke (the second layer of MentionIndex, see mention-index.ts): which
// candidates match the query in their name, path or other text, and in which tier. Name tiers come
// from one scan of all names joined, path tiers from one scan of all folders joined (both only
// where the caller's last query occurred when this one extends it, see narrowing.ts), so that a
// candidate costs a few typed-array reads; few candidates, or a one-character query, are tested
// one by one. Also the subsequence test the fuzzy tier and tierOf use.
import { bigramMask, charClass, classMask, wordStartAt } from "./char-classes";
import { IndexTables, lastAtOrBefore } from "./index-tables";
import { occurrences, type SearchState } from "./narrowing";

/** The tiers, best first (see mention-index.ts). */
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
export const TIERS = 8;
export const NO_MATCH = -1;
/** A per-folder memo not worked out yet for this keystroke. */
const UNKNOWN = -2;
/** No name tier (see scanNames). */
export const NONE = 255;
/** A candidate that is no real match and may be a fuzzy one. */
export const PENDING = 254;
/** A candidate that turned out to match nothing. */
export const DROPPED = 253;
/** A query's `/` heads memoised per folder, one bit each (a signed 32-bit mask keeps 31). */
export const MAX_HEADS = 31;

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

/** The real tiers over the index's tables, and the per-keystroke folder memo they fill. */
export class TierScan extends IndexTables {
  /** How many entries the last scanNames (or firstCharMatches) put in nameMatches. */
  protected nameMatchCount = 0;
  /** The current query's heads (each up to and including one of its `/`) and the rest after each. */
  protected heads: string[] = [];
  private rests: string[] = [];
  /** suffixClasses[k]: the classes of q from position k on (for isFuzzy's name test). */
  private suffixClasses = new Int32Array(0);

  /**
   * The tier of each candidate (PENDING for none yet) into the scratch lists, counted by tier in
   * `counts`; returns how many. The name tiers come from scanNames, the path tiers from scanFolders
   * (and, for a query with `/`, across the folder's end into the name: see folderFirst), so a
   * candidate costs a few typed-array reads: at a million paths this loop is much of a keystroke.
   */
  protected tiersFromScan(
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
  protected tiersOneByOne(
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
  protected firstCharMatches(code: number, from: Int32Array | undefined): number {
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

  /** Clears the per-folder memo for a new query and splits the query at its `/` once. */
  protected resetFolderMemo(q: string): void {
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
  protected realTier(
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
  protected scanNames(q: string, hasSlash: boolean, state: SearchState): Uint8Array {
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

  /**
   * Where q first occurs in each folder (dirFirst; -1: nowhere), from one search of all folders
   * joined (or of where the caller's last query occurred, when q extends it): a per-folder
   * `indexOf` costs more to set up than to run, and a million paths have some 80 thousand folders.
   */
  protected scanFolders(q: string, state: SearchState): void {
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
  protected folderFirst(i: number, q: string, hasSlash: boolean): number {
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
  protected folderEnds(d: number): number {
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
  protected isFuzzy(i: number, q: string): boolean {
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

export function queryClasses(q: string): number {
  return classMask(q);
}

export function queryBigrams(q: string): [number, number] {
  return bigramMask(q, 0);
}
