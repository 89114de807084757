// Fuzzy match quality for the @ popup's last tier, in the manner of fzf's scoring: every matched
// character scores, more at a word start (after `/`, after `_ . - :` or a space, at a camelCase
// hump), doubled for the first query character; a contiguous run keeps the bonus of where it
// started; gaps cost by length; characters in the name score a little more than in the folder.
//
// An alignment splits the query in two: its first s characters in the folder, the rest in the
// name; the score of a file is the best of its splits. Files share folders (about twelve to one in
// real trees), so the folder part of every split is worked out once per folder (FolderSplits), and
// kept across a typist's keystrokes (FolderCache), so a longer query only adds its new character;
// a file costs only its short name (nameTail, nameSplit). Upper bounds from character masks
// (nameBounds, nameOnlyBound) let a keystroke read the candidates best bound first and stop where
// no bound left can beat the worst match kept: a bound never underestimates, so the ranked list is
// the same as scoring every match.
import { bigramBucket, charClass, isLowerOrDigit, isUpper } from "./char-classes";

const SCORE_MATCH = 16;
const GAP_START = 3;
const GAP_EXTENSION = 1;
const BONUS_SLASH = 10;
const BONUS_SEPARATOR = 8;
const BONUS_CAMEL = 7;
const BONUS_CONSECUTIVE = 4;
const BONUS_NAME = 2;
/** How far past the next occurrence a word start is looked for. */
const LOOKAHEAD = 24;
/** The largest word-start bonus (BONUS_SLASH), and what the first query character gets there. */
const BEST_START = BONUS_SLASH;
const BEST_FIRST = 2 * BONUS_SLASH;
/** q's pairs q[k-1] q[k] with k below this are told apart in a pair mask (bit k); later ones are taken as present. */
const PAIRS_KNOWN = 32;
/** Scoring looks at this many query characters at most (the contract caps q at 500). */
export const MAX_FUZZY_QUERY = 512;
/** A score no alignment has: a split that does not fit. Sums of two stay far from overflowing. */
export const IMPOSSIBLE = -(1 << 28);
export const possible = (score: number) => score > IMPOSSIBLE / 2;

/** The bonus of a match at `at` of a string whose path starts at `start` (a folder may sit inside a longer string). */
function boundaryBonus(path: string, at: number, start = 0): number {
  if (at === start) return BONUS_SLASH;
  const prev = path.charCodeAt(at - 1);
  // A NUL is where a name starts in names joined (see MentionIndex's JOIN), as a `/` is in a path.
  if (prev === 47 || prev === 0) return BONUS_SLASH;
  if (prev === 95 || prev === 46 || prev === 45 || prev === 58 || prev === 32) return BONUS_SEPARATOR;
  const cur = path.charCodeAt(at);
  if (cur < 128 && prev < 128)
    return cur >= 65 && cur <= 90 && ((prev >= 97 && prev <= 122) || (prev >= 48 && prev <= 57)) ? BONUS_CAMEL : 0;
  const p = path[at - 1];
  const c = path[at];
  return p !== undefined && c !== undefined && isLowerOrDigit(p) && isUpper(c) ? BONUS_CAMEL : 0;
}

/** A word start a little further on is worth a gap: the first `code` after `at`, up to `until`, that starts a word, or -1. */
function wordStartWithin(lower: string, original: string, code: number, at: number, until: number, start = 0): number {
  for (let b = at + 1; b <= until; b++)
    if (lower.charCodeAt(b) === code && boundaryBonus(original, b, start) > 0) return b;
  return -1;
}

/** A lower-case query (at most MAX_FUZZY_QUERY characters) prepared once per keystroke. */
export class FuzzyQuery {
  readonly m: number;
  readonly codes: Int32Array;
  /** Each character's class bit (see charClass). */
  readonly bits: Int32Array;
  /** pairs[k] (k > 0): the bigram bucket of q[k-1] q[k]. */
  readonly pairs: Int32Array;
  /** suffix[k]: the classes of q[k..m) (suffix[m] is 0). */
  readonly suffix: Int32Array;
  /** suffixTwice[k]: the classes that occur twice or more in q[k..m) (see twiceClassMask). */
  readonly suffixTwice: Int32Array;
  /**
   * For a pair of character classes (32 * first + second), which of q's pairs q[k-1] q[k] have
   * them, bit k (k < 32; later pairs are always taken as present, see PAIRS_KNOWN).
   */
  private readonly pairClasses = new Int32Array(32 * 32);

  constructor(readonly q: string) {
    const m = (this.m = q.length);
    this.codes = new Int32Array(m);
    this.bits = new Int32Array(m);
    this.pairs = new Int32Array(m);
    this.suffix = new Int32Array(m + 1);
    this.suffixTwice = new Int32Array(m + 1);
    for (let k = 0; k < m; k++) {
      const code = q.charCodeAt(k);
      this.codes[k] = code;
      this.bits[k] = 1 << charClass(code);
      if (k > 0) this.pairs[k] = bigramBucket(q.charCodeAt(k - 1), code);
      if (k > 0 && k < PAIRS_KNOWN) this.pairClasses[32 * charClass(q.charCodeAt(k - 1)) + charClass(code)]! |= 1 << k;
    }
    for (let k = m - 1; k >= 0; k--) {
      this.suffix[k] = this.suffix[k + 1]! | this.bits[k]!;
      this.suffixTwice[k] = this.suffixTwice[k + 1]! | (this.suffix[k + 1]! & this.bits[k]!);
    }
  }

  /**
   * No score or bound of this query exceeds this: per character a match, the name's bonus and at
   * most the doubled first bonus (which a run from the first character carries on).
   */
  maxBound(): number {
    return this.m * (SCORE_MATCH + BONUS_NAME + BEST_FIRST);
  }

  /**
   * Which of q's pairs (bit k: q[k-1] q[k]) a name's bigram masks may hold: a bucket can be shared
   * (`id` and `ex` are), so some bits are set that the name lacks.
   */
  pairsInMasks(bigramsLow: number, bigramsHigh: number): number {
    const { m, pairs } = this;
    let found = 0;
    for (let k = 1; k < m && k < PAIRS_KNOWN; k++) {
      const pair = pairs[k]!;
      if ((pair < 32 ? (bigramsLow >>> pair) & 1 : (bigramsHigh >>> (pair - 32)) & 1) !== 0) found |= 1 << k;
    }
    return found;
  }

  /**
   * The same read from the name itself, text[from..end): exact for letters and separators (digits
   * and other characters by class). Costs a pass over the name; spares a candidate whose masks
   * only seemed to hold a pair the scoring of every alignment.
   */
  pairsInText(text: string, from: number, end: number): number {
    const table = this.pairClasses;
    let found = 0;
    let prev = from < end ? charClass(text.charCodeAt(from)) : 0;
    for (let at = from + 1; at < end; at++) {
      const cur = charClass(text.charCodeAt(at));
      found |= table[32 * prev + cur]!;
      prev = cur;
    }
    return found;
  }

  /**
   * The first split whose rest could fit in a name with these classes, `twice` those it has twice
   * or more (m: only all of q in the folder). `readme` needs a name with two e's.
   */
  firstSplit(classes: number, twice = -1): number {
    let s = 0;
    while ((this.suffix[s]! & ~classes) !== 0 || (this.suffixTwice[s]! & ~twice) !== 0) s++;
    return s;
  }
}

/**
 * A folder's text: lower[start..end) and the same as written in original (for camelCase humps),
 * either its own strings or a slice of all folders joined (FolderCache reads those: one string in
 * order is far cheaper to walk than tens of thousands of scattered ones).
 */
export type FolderText = { lower: string; original: string; start: number; end: number; classes: number };
const ownText = (lower: string, original: string): FolderText => ({
  lower,
  original,
  start: 0,
  end: lower.length,
  classes: -1,
});

/** A left-to-right alignment in a folder, one character at a time: five numbers in a state array. */
const CURSOR = 0; // where the next character is looked for; -1 once one was not there
const PREV = 1;
const SCORE = 2;
const CHUNK = 3;
const REACHED = 4; // how many characters it placed
const PASS = 5;
/** Per folder: two passes, one that waits for a word start a little further on, one plain greedy (see extendPasses). */
const PASSES = 2 * PASS;

function startPasses(state: Int32Array, at: number, start: number): void {
  for (let p = at; p < at + PASSES; p += PASS) {
    state[p + CURSOR] = start;
    state[p + PREV] = -2;
    state[p + SCORE] = 0;
    state[p + CHUNK] = 0;
    state[p + REACHED] = 0;
  }
}

/** Places q[k] for the pass at `p` in `state`; false when the folder has no more of it. */
function advance(
  state: Int32Array,
  p: number,
  k: number,
  fq: FuzzyQuery,
  folder: FolderText,
  lookahead: boolean,
): boolean {
  const cursor = state[p + CURSOR]!;
  if (cursor < 0) return false;
  const { lower, original, start, end } = folder;
  const code = fq.codes[k]!;
  // A folder's classes say whether it holds the character at all; if it does, a plain loop to the
  // next one is cheaper than native searches (a folder is tens of characters, and inside all
  // folders joined a native search would have to be kept from running past this one's end).
  let at = cursor;
  if ((folder.classes & fq.bits[k]!) === 0) at = end;
  else while (at < end && lower.charCodeAt(at) !== code) at++;
  if (at === end) {
    state[p + CURSOR] = -1;
    return false;
  }
  const prev = state[p + PREV]!;
  let bonus = boundaryBonus(original, at, start);
  if (lookahead && at !== prev + 1 && bonus === 0) {
    const later = wordStartWithin(lower, original, code, at, Math.min(end - 1, at + LOOKAHEAD), start);
    if (later !== -1) {
      at = later;
      bonus = boundaryBonus(original, at, start);
    }
  }
  let score = state[p + SCORE]!;
  if (k === 0) bonus *= 2;
  if (at === prev + 1) bonus = Math.max(bonus, state[p + CHUNK]!, BONUS_CONSECUTIVE);
  else {
    if (k > 0) score -= GAP_START + (at - prev - 2) * GAP_EXTENSION;
    state[p + CHUNK] = bonus;
  }
  state[p + SCORE] = score + SCORE_MATCH + bonus;
  state[p + PREV] = at;
  state[p + CURSOR] = at + 1;
  state[p + REACHED] = k + 1;
  return true;
}

/**
 * Takes q[from..to) into a folder's passes (at `at` in `state`), writing x and y for each split
 * s = k + 1 at x[base + s] (see FolderSplits). The word-start pass decides; the greedy one is
 * needed only where that one ran out of folder (it fits as much as can fit), so it starts then,
 * from the query's start.
 */
function extendPasses(
  fq: FuzzyQuery,
  from: number,
  to: number,
  folder: FolderText,
  state: Int32Array,
  at: number,
  x: Int32Array,
  y: Int32Array,
  base: number,
): void {
  const end = folder.end;
  const greedy = at + PASS;
  for (let k = from; k < to; k++) {
    let p = at;
    if (!advance(state, at, k, fq, folder, true)) {
      // The greedy pass has placed k characters when the word-start pass first runs out at k.
      if (state[at + REACHED] === k && state[greedy + REACHED] === 0 && k > 0)
        for (let j = 0; j < k; j++) advance(state, greedy, j, fq, folder, false);
      p = greedy;
      // Out of folder: splits past here are never read (see FolderSplits.consumed).
      if (!advance(state, greedy, k, fq, folder, false)) return;
    }
    const score = state[p + SCORE]!;
    const prev = state[p + PREV]!;
    // The gap to a name character at position a: GAP_START + (end + a - prev - 2) extensions.
    x[base + k + 1] = score - GAP_START - (end - prev - 2) * GAP_EXTENSION;
    y[base + k + 1] = prev === end - 1 ? score : IMPOSSIBLE;
  }
}

/**
 * The folder part of each split, for one folder and query: x[s] (0 < s < m) is the best score of
 * q[0..s) in the folder less the gap it leaves up to the name (the name part adds the rest of that
 * gap, its first position); y[s] the same when the last character is the folder's closing `/`, for
 * a name matched from its first character (no gap at all); z all of q in the folder. The alignment
 * is left to right, waiting for a word start a little further on, or plain greedy past where that
 * runs out of folder (see extendPasses). It only ever extends, so a longer query takes in its new
 * characters only (FolderCache).
 */
export class FolderSplits {
  x: Int32Array;
  y: Int32Array;
  /** Where split 0 is in x and y. */
  base = 0;
  z = IMPOSSIBLE;
  /** How many leading characters of q the folder holds (greedy): x and y are read up to here only. */
  consumed = 0;
  private readonly state = new Int32Array(PASSES);
  private readonly ownX: Int32Array;
  private readonly ownY: Int32Array;

  constructor(m: number) {
    this.x = this.ownX = new Int32Array(m + 1);
    this.y = this.ownY = new Int32Array(m + 1);
  }

  /** From scratch, into this object's own arrays. */
  compute(fq: FuzzyQuery, dir: string, original: string): this {
    this.x = this.ownX;
    this.y = this.ownY;
    startPasses(this.state, 0, 0);
    extendPasses(fq, 0, fq.m, ownText(dir, original), this.state, 0, this.x, this.y, 0);
    this.base = 0;
    return this.conclude(fq.m, this.state, 0);
  }

  /** z and consumed from the passes' state after m characters. */
  conclude(m: number, state: Int32Array, at: number): this {
    const p = state[at + REACHED] === m ? at : at + PASS;
    this.consumed = state[p + REACHED]!;
    this.z = this.consumed === m ? state[p + SCORE]! : IMPOSSIBLE;
    return this;
  }

  /** The best total for split s given its name part (nameSplit's score and first position). */
  total(s: number, m: number, name: number, first: number): number {
    if (s === 0) return name;
    if (s === m) return this.z;
    const gapped = this.x[this.base + s]! - first * GAP_EXTENSION;
    return name + (first === 0 ? Math.max(gapped, this.y[this.base + s]!) : gapped);
  }

  /** An upper bound of total(s) for any name part of at most `name`. */
  bound(s: number, m: number, name: number): number {
    if (s === 0) return name;
    if (s === m) return this.z;
    return name + Math.max(this.x[this.base + s]!, this.y[this.base + s]!);
  }
}

/**
 * One typist's folder parts, kept across keystrokes: each folder remembers how much of the query
 * its passes took in, and a query that extends the last one only adds its new characters. Up to
 * FolderCache.LONGEST characters; longer queries are worked out from scratch.
 */
export class FolderCache {
  static readonly LONGEST = 16;
  private static readonly STRIDE = FolderCache.LONGEST + 1;
  private query = "";
  private readonly covered: Int32Array;
  private readonly state: Int32Array;
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly text: FolderText;
  readonly folders: number;

  /**
   * `offsets[d]`: where folder d starts in `lower` and `original`, all folders joined (by one character);
   * `classes[d]`: the character classes in it (see charClass).
   */
  constructor(
    lower: string,
    original: string,
    private readonly offsets: Int32Array,
    private readonly classes: Int32Array,
  ) {
    const folders = (this.folders = offsets.length);
    this.text = { lower, original, start: 0, end: 0, classes: 0 };
    this.covered = new Int32Array(folders);
    this.state = new Int32Array(folders * PASSES);
    this.x = new Int32Array(folders * FolderCache.STRIDE);
    this.y = new Int32Array(folders * FolderCache.STRIDE);
  }

  private bringUp(fq: FuzzyQuery, d: number): void {
    const from = this.covered[d]!;
    if (from >= fq.m) return;
    const at = d * PASSES;
    const text = this.text;
    text.start = this.offsets[d]!;
    text.end = d + 1 < this.folders ? this.offsets[d + 1]! - 1 : text.lower.length;
    text.classes = this.classes[d]!;
    if (from === 0) startPasses(this.state, at, text.start);
    extendPasses(fq, from, fq.m, text, this.state, at, this.x, this.y, d * FolderCache.STRIDE);
    this.covered[d] = fq.m;
  }

  /** Forgets every folder's passes (the cache changes hands). */
  reset(): void {
    this.query = "";
    this.covered.fill(0);
  }

  /** Whether q (lower case) can be served; folders start over unless it extends the last query. */
  prepare(q: string): boolean {
    if (q.length > FolderCache.LONGEST) return false;
    if (!q.startsWith(this.query)) this.covered.fill(0);
    this.query = q;
    return true;
  }

  /**
   * Brings every folder up to the prepared query: keystrokes the name tiers answer alone do this
   * one character at a time, so that the first one needing the fuzzy tier finds them ready.
   */
  extendAll(fq: FuzzyQuery): void {
    for (let d = 0; d < this.folders; d++) this.bringUp(fq, d);
  }

  /** The same for the folders of some entries only (`dirId[entry]`: its folder), once each. */
  extendFoldersOf(fq: FuzzyQuery, entries: Int32Array, dirId: Int32Array): void {
    for (let n = 0; n < entries.length; n++) this.bringUp(fq, dirId[entries[n]!]!);
  }

  /** Brings folder d up to the prepared query and points `view` at its parts. */
  take(fq: FuzzyQuery, d: number, view: FolderSplits): FolderSplits {
    this.bringUp(fq, d);
    const at = d * PASSES;
    const base = d * FolderCache.STRIDE;
    view.x = this.x;
    view.y = this.y;
    view.base = base;
    return view.conclude(fq.m, this.state, at);
  }
}

/**
 * Upper bounds of the name part of each split s (0 <= s < m) into out[s], from the masks of a name
 * (or of all names in a folder, OR-ed): a character scores a word-start bonus only if its class
 * starts a word there, continues a run only if `pairs` has its pair with the character before it
 * (see FuzzyQuery.pairsInMasks, pairsInText), and cannot match at all if
 * its class is missing (IMPOSSIBLE). Worked back to front with three running values, by the bonus
 * a run carries into the next character (doubled first character, one word start, none).
 */
export function nameBounds(fq: FuzzyQuery, starts: number, classes: number, pairs: number, out: Int32Array): void {
  const { m, bits } = fq;
  let carryFirst = 0;
  let carryStart = 0;
  let carryNone = 0;
  for (let k = m - 1; k >= 0; k--) {
    const bit = bits[k]!;
    if ((classes & bit) === 0) {
      for (; k >= 0; k--) out[k] = IMPOSSIBLE;
      return;
    }
    const gain = SCORE_MATCH + BONUS_NAME;
    const wordStart = (starts & bit) !== 0;
    // q[k] opens the name part.
    out[k] = wordStart ? gain + (k === 0 ? BEST_FIRST + carryFirst : BEST_START + carryStart) : gain + carryNone;
    if (k === 0) return;
    // q[k] after q[k-1], whose run carries BEST_FIRST, BEST_START or nothing.
    const afterGap = gain - GAP_START + (wordStart ? BEST_START + carryStart : carryNone);
    if (k >= PAIRS_KNOWN || ((pairs >>> k) & 1) !== 0) {
      carryFirst = Math.max(afterGap, gain + BEST_FIRST + carryFirst);
      carryStart = Math.max(afterGap, gain + BEST_START + carryStart);
      carryNone = Math.max(afterGap, gain + (wordStart ? BEST_START : BONUS_CONSECUTIVE) + carryNone);
    } else carryFirst = carryStart = carryNone = afterGap;
  }
}

/**
 * nameBounds' out[0] alone (all of q in the name), front to back with the same three running
 * values: the cheap first look every candidate of a keystroke gets.
 */
export function nameOnlyBound(fq: FuzzyQuery, starts: number, classes: number, pairs: number): number {
  const { m, bits } = fq;
  const gain = SCORE_MATCH + BONUS_NAME;
  const first = bits[0]!;
  if ((classes & first) === 0) return IMPOSSIBLE;
  // The best total so far with the current run carrying BEST_FIRST, BEST_START or nothing.
  let runFirst = starts & first ? gain + BEST_FIRST : IMPOSSIBLE;
  let runStart = IMPOSSIBLE;
  let runNone = starts & first ? IMPOSSIBLE : gain;
  for (let k = 1; k < m; k++) {
    const bit = bits[k]!;
    if ((classes & bit) === 0) return IMPOSSIBLE;
    const wordStart = (starts & bit) !== 0;
    const afterGap = Math.max(runFirst, runStart, runNone) + gain - GAP_START + (wordStart ? BEST_START : 0);
    if (k >= PAIRS_KNOWN || ((pairs >>> k) & 1) !== 0) {
      runFirst += gain + BEST_FIRST;
      runStart += gain + BEST_START;
      runNone += gain + (wordStart ? BEST_START : BONUS_CONSECUTIVE);
    } else runFirst = runStart = runNone = IMPOSSIBLE;
    if (wordStart) runStart = Math.max(runStart, afterGap);
    else runNone = Math.max(runNone, afterGap);
  }
  return Math.max(runFirst, runStart, runNone);
}

/** Scratch for nameSplits: `latest` per query character, and the positions of one alignment. */
export class NameScratch {
  readonly latest: Int32Array;
  readonly positions: Int32Array;
  /** The name part's first position, set by nameSplit. */
  first = 0;

  constructor(m: number) {
    this.latest = new Int32Array(m);
    this.positions = new Int32Array(m);
  }
}

/**
 * Where q[lo..m) is the longest tail of q that fits in the name `lower[ns..end)`: one sweep from
 * the end, leaving in scratch.latest[k] (k >= lo) the last position q[k] can take with the rest
 * still after it. Returns lo (m when not even the last character is there).
 */
export function nameTail(fq: FuzzyQuery, lower: string, ns: number, scratch: NameScratch, end = lower.length): number {
  const { m, codes } = fq;
  const latest = scratch.latest;
  let k = m - 1;
  for (let at = end - 1; at >= ns && k >= 0; at--) {
    if (lower.charCodeAt(at) === codes[k]) latest[k--] = at;
  }
  return k + 1;
}

/**
 * The name part of split s (s >= the tail nameTail found): q[s..m) left to right in the name from
 * its start, each character at its next occurrence unless that breaks a run and a word start
 * follows within reach (never past latest[k], so the rest still fits). Scores as FolderSplits does,
 * plus BONUS_NAME a character; the first character's bonus counts double when s is 0. Sets
 * scratch.first (its position in the name) and scratch.positions[s..m).
 */
export function nameSplit(
  fq: FuzzyQuery,
  lower: string,
  path: string,
  ns: number,
  s: number,
  scratch: NameScratch,
): number {
  const { m, codes } = fq;
  const { latest, positions } = scratch;
  let cursor = ns;
  let prev = -2;
  let score = 0;
  let chunk = 0;
  for (let k = s; k < m; k++) {
    const code = codes[k]!;
    let at = cursor;
    // There is one no later than latest[k]: the tail fits from any cursor the loop reaches.
    while (lower.charCodeAt(at) !== code) at++;
    let bonus = boundaryBonus(path, at);
    if (at !== prev + 1 && bonus === 0) {
      const later = wordStartWithin(lower, path, code, at, Math.min(latest[k]!, at + LOOKAHEAD));
      if (later !== -1) {
        at = later;
        bonus = boundaryBonus(path, at);
      }
    }
    if (k === 0) bonus *= 2;
    if (at === prev + 1) bonus = Math.max(bonus, chunk, BONUS_CONSECUTIVE);
    else {
      if (k > s) score -= GAP_START + (at - prev - 2) * GAP_EXTENSION;
      chunk = bonus;
    }
    score += SCORE_MATCH + bonus + BONUS_NAME;
    positions[k] = prev = at;
    cursor = at + 1;
  }
  scratch.first = s < m ? positions[s]! - ns : 0;
  return score;
}

/** The best `capacity` fuzzy matches: higher score, then shorter name, then catalog order. */
export class FuzzyHeap {
  private readonly ids: Int32Array;
  private readonly scores: Float64Array;
  private size = 0;

  constructor(
    readonly capacity: number,
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

  /** Whether a match of `id` scoring at most `bound` cannot be kept (the heap is full of better ones). */
  rejects(id: number, bound: number): boolean {
    return this.size === this.ids.length && this.size > 0 && !this.worse(this.ids[0]!, this.scores[0]!, id, bound);
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

  /** The kept matches and their scores, best first. */
  drain(): { ids: number[]; scores: number[] } {
    const order = Array.from(this.ids.subarray(0, this.size), (id, k) => [id, this.scores[k]!] as const);
    order.sort((a, b) => (this.worse(a[0], a[1], b[0], b[1]) ? 1 : this.worse(b[0], b[1], a[0], a[1]) ? -1 : 0));
    this.size = 0;
    return { ids: order.map(([id]) => id), scores: order.map(([, score]) => score) };
  }
}

/**
 * One object of each kind a keystroke makes and drops, kept for the module's life. V8's optimized
 * code for the ranking holds these objects' hidden classes weakly: a full GC that finds no object
 * of a class alive (between keystrokes every one is garbage) drops the class and, with it, all of
 * that code, so the next keystroke runs unoptimized, three to eight times slower.
 */
export const KEPT_SHAPES: readonly object[] = [
  new FuzzyQuery("ab"),
  new FolderSplits(1),
  new NameScratch(1),
  new FuzzyHeap(1, new Uint16Array(1)),
];
