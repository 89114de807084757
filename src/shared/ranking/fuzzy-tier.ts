// The fuzzy tier of a keystroke (the third layer of MentionIndex, see mention-index.ts): the
// candidates no real tier took, read best bound first. Each gets an upper bound of its score from
// masks (its own for all of the query in its name, its folder's for the other splits, once per
// folder), goes into a bucket queue by bound and name length, and is scored (fuzzy-score.ts) only
// when it comes out at a bound no entry left can beat; a bounded heap keeps the best `limit`.
import { lowerKeepingLength } from "./char-classes";
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
} from "./fuzzy-score";
import { FolderCaches, type SearchState } from "./narrowing";
import { DROPPED, PENDING, Tier, TierScan } from "./tier-scan";

/** entryScore's answer for a match none of whose splits can make the list. */
const BELOW = IMPOSSIBLE + 1;
/** Splits a keystroke keeps a folder bound for each (see tailBounds). */
const TAIL_SPLITS = 16;

/** The fuzzy tier over the real tiers, with its scratch and the typists' folder caches. */
export class FuzzyTier extends TierScan {
  /**
   * Scratch for the fuzzy tier, per folder (besides the two in index-tables.ts): for each split t
   * the best bound of the splits from t on (m + 1 a folder).
   */
  private folderTail = new Int32Array(0);
  /** Scratch for the fuzzy tier, per candidate position: its bound, the bucket queue's links, whether its bound is its own. */
  private entryBound = new Int32Array(0);
  private entryOrder = new Int32Array(0);
  private entryRefined = new Uint8Array(0);
  /** Scratch for the fuzzy tier: the folders a keystroke looked at. */
  private touchedFolders = new Int32Array(0);
  /** The folder caches of the typists seen last (see narrowing.ts). */
  private readonly folderCaches = new FolderCaches(
    () => new FolderCache(this.dirsJoined, this.dirsOriginalJoined, this.dirOffset, this.dirClasses),
  );

  /**
   * The fuzzy tier: the PENDING candidates among the first `count` of the scratch lists, best first
   * into `heap`. Each gets an upper bound of its score from masks: the best its name allows with
   * all of q in the name, or the best its folder allows for the other splits (once per folder).
   * They are read from the highest bound down; once the heap is full, those below its worst kept
   * score are left PENDING unread. Those that cannot match at all are marked DROPPED, the matches
   * Tier.Fuzzy. Returns how many matched, and the kept ones best first with their highlights (worked
   * out here, where the keystroke's folder parts are at hand, not again per row).
   */
  protected rankFuzzy(
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
    const cache = this.folderCaches.of(state);
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
  protected splitRanges(i: number, fq: FuzzyQuery, split: number, scratch: NameScratch): [number, number][] {
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
  protected warmFolders(q: string, state: SearchState, from: Int32Array | undefined): void {
    const cache = this.folderCaches.of(state);
    if (!cache.prepare(q)) return;
    if (from && from.length < 4 * cache.folders) cache.extendFoldersOf(new FuzzyQuery(q), from, this.dirId);
    else cache.extendAll(new FuzzyQuery(q));
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

  /** How well `query` matches entry `i` as a fuzzy subsequence (higher is better), or -Infinity. */
  fuzzyScore(i: number, query: string): number {
    const score = this.scoreOne(i, query).score;
    return possible(score) ? score : -Infinity;
  }

  /** One entry's fuzzy score, the split it came from and the scratch holding that split's name positions. */
  protected scoreOne(i: number, query: string): { score: number; split: number; fq: FuzzyQuery; scratch: NameScratch } {
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

  /** Which of q's pairs entry i's name holds (see FuzzyQuery.pairsInText). */
  private namePairs(fq: FuzzyQuery, i: number): number {
    return fq.pairsInText(this.names, this.nameOffset[i]!, this.nameEnd(i));
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

/** Kept for the module's life, as fuzzy-score.ts's KEPT_SHAPES are (see there). */
export const KEPT_BUCKET_KEYS = new BucketKeys(1, new Uint16Array(1));

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

function mergeRanges(positions: number[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const p of positions) {
    const last = ranges.at(-1);
    if (last && last[1] === p) last[1] = p + 1;
    else ranges.push([p, p + 1]);
  }
  return ranges;
}
