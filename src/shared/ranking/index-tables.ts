// The searchable form of a list of entries (the first layer of MentionIndex, see mention-index.ts):
// built once per scan, a slice at a time, or moved in whole from another thread (snapshot), so that
// a keystroke never re-derives anything per entry. It holds the names joined, each folder once,
// character-class and bigram masks per name and per folder, each folder's entries, and the
// per-keystroke scratch sized to them. Nothing here runs per keystroke.
import { bigramMask, charClass, classMask, lowerKeepingLength, twiceClassMask, wordStartAt } from "./char-classes";

/**
 * What joins names (and folders) into one string: NUL, which no file name holds (a newline can), so
 * no query matches across two names; a query with a NUL matches nothing.
 */
export const JOIN = "\u0000";

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

/**
 * The tables of MentionIndex: the names joined (lower case and as written: no entry keeps a string
 * of its own, which at a million paths is most of an index's memory), each folder once, name
 * offsets, character-class masks of the path, the name and its word starts, a bigram mask of the
 * name, and the folder of each entry (files share folders, so the folder part is searched once per
 * folder and keystroke). The layers above read these arrays straight off `this` in their loops.
 */
export class IndexTables {
  readonly size: number;
  protected readonly firstNameCode: Uint16Array;
  protected readonly nameLength: Uint16Array;
  /** Bit k set: name position k (k < 32) starts a word. */
  protected readonly wordMask: Uint32Array;
  protected readonly wordStartClasses: Uint32Array;
  protected readonly nameClasses: Uint32Array;
  /** The classes the name holds twice or more (a query with two e's needs a name with two). */
  protected readonly nameTwice: Uint32Array;
  /** Classes in the path and the other text: every tier needs all of the query's. */
  protected readonly anyClasses: Uint32Array;
  protected readonly nameBigramsLow: Uint32Array;
  protected readonly nameBigramsHigh: Uint32Array;
  /** Other search text (lower case), for the few entries that have it. */
  protected readonly other: Map<number, string> = new Map();
  protected readonly hasOther: Uint8Array;
  /** All lower-cased names in catalog order, joined by JOIN, and where each one starts. */
  protected names = "";
  /** The same as written (the same string when no name has a capital). */
  protected namesOriginal = "";
  protected readonly nameOffset: Int32Array;
  /** Per keystroke: the name tier of each entry from one sequential scan of `names` (255: none). */
  protected readonly nameTierBuffer: Uint8Array;
  /**
   * The entries scanNames (or firstCharMatches) found, in catalog order, and how many. Shares the
   * scratch buffer: it is read only when the name matches answer alone, before the scratch is used.
   */
  protected readonly nameMatches: Int32Array;
  protected readonly dirId: Int32Array;
  /** Each folder (with its closing `/`) as written and lower-cased. */
  protected readonly dirOriginal: string[] = [];
  protected readonly dirLower: string[] = [];
  /** The masks of all names in a folder OR-ed, for a bound that holds for each of them. */
  protected dirNameStarts = new Int32Array(0);
  protected dirNameClasses = new Int32Array(0);
  protected dirNameBigramsLow = new Int32Array(0);
  protected dirNameBigramsHigh = new Int32Array(0);
  protected dirLongestName = new Int32Array(0);
  /** Per keystroke, a memo of the real tiers (see tier-scan.ts): where q first occurs in each folder. */
  protected dirFirst = new Int32Array(0);
  /** Folder d's entries, in catalog order: dirEntries[dirEntryStart[d] .. dirEntryStart[d + 1]). */
  protected dirEntryStart = new Int32Array(1);
  protected dirEntries = new Int32Array(0);
  /** All lower-cased folders joined by JOIN, and where each one starts (see scanFolders). */
  protected dirsJoined = "";
  protected dirsOriginalJoined = "";
  protected dirClasses = new Int32Array(0);
  protected dirOffset = new Int32Array(0);
  /** Per keystroke, a memo of the subsequence test (see isFuzzy): how much of q each folder holds. */
  protected dirConsumed = new Int32Array(0);
  /**
   * For a query with a `/`: which of its heads (see resetFolderMemo) each folder ends with, one bit per
   * head (UNKNOWN until looked at), so a candidate costs at most a name-prefix test per such head.
   */
  protected dirHeads = new Int32Array(0);
  /** Scratch for one keystroke (a search runs to completion before the next starts). */
  protected readonly scratch: Int32Array;
  protected readonly tierBuffer: Uint8Array;
  /**
   * Scratch for the fuzzy tier, per folder: whether it is worked out this keystroke and how much of
   * q it holds (the rest of its scratch is its own, see fuzzy-tier.ts).
   */
  protected folderSeen = new Uint8Array(0);
  protected folderConsumed = new Int32Array(0);

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

  private entries: readonly IndexEntry[] | undefined;
  private nameParts: string[] | undefined;
  private originalParts: string[] | undefined;
  private nextOffset = 0;
  private readonly dirIds = new Map<string, number>();

  protected fill(from: number, to: number): void {
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

  protected finish(): void {
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

  /** The length of entry i's name as ranked (lower case): fuzzy ties go to the shorter. */
  nameLengthOf(i: number): number {
    return this.nameLength[i]!;
  }

  /** Entry i's name, lower case (a slice of `names`: read it there where a keystroke reads many). */
  protected nameText(i: number): string {
    return this.names.slice(this.nameOffset[i]!, this.nameEnd(i));
  }

  /** Where entry i's name ends in `names`. */
  protected nameEnd(i: number): number {
    return i + 1 < this.size ? this.nameOffset[i + 1]! - 1 : this.names.length;
  }

  /** The entry whose name holds position `at` of `names`. */
  protected entryAt(at: number): number {
    return lastAtOrBefore(this.nameOffset, this.size, at);
  }
}

/** The last k < size with offsets[k] <= at (offsets ascending, offsets[0] <= at). */
export function lastAtOrBefore(offsets: Int32Array, size: number, at: number): number {
  let lo = 0;
  let hi = size - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
