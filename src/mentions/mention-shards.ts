// One ranking split across shards (threads, see mentions/ranking-shards.ts) without changing a
// single result: each shard ranks its own entries as the whole index would rank them, with their
// catalog indices, and the merge orders the shards' lists as one index orders its own: by tier,
// then catalog order, except fuzzy matches (best score, then shorter name, then catalog order; see
// FuzzyHeap). Each shard's list is its best `limit` in that order, so the best `limit` of all of
// them together are among them. Shards take whole folders (the fuzzy tier works each folder out
// once per keystroke, and a folder split in two would be worked out twice), except a folder so big
// that whole it would leave one shard most of the work (a real /usr/share/man/man1 holds 15% of
// /usr): its names are dealt out among the shards.
import {
  MentionIndex,
  Tier,
  type IndexEntry,
  type PartsTogether,
  type SearchResult,
  type SearchState,
} from "../shared/ranking/mention-index";

/** One shard's answer, in catalog indices, with what the merge orders by and every row's highlights. */
export type ShardResult = {
  indices: number[];
  tiers: number[];
  /** A fuzzy match's score (0 for the other tiers). */
  scores: number[];
  /** A fuzzy match's name length as ranked (0 for the other tiers). */
  nameLengths: number[];
  ranges: [number, number][][];
  total: number;
};

/** A number per folder (entries of one folder share it; two folders rarely do, and then only share a shard). */
export function folderHash(path: string, nameStart: number): number {
  let hash = 0x811c9dc5;
  for (let k = 0; k < nameStart; k++) hash = Math.imul(hash ^ path.charCodeAt(k), 0x01000193);
  return hash | 0;
}

/** The least a folder holds to be dealt out among shards rather than kept whole (see assignShards). */
const SPLIT_AT_LEAST = 1024;

/**
 * Each entry's shard (0 to shards - 1) from its folder's hash: folders of more than `splitAbove`
 * entries dealt out among the shards name by name, then the others whole, the fullest first, each
 * to the shard holding fewest entries so far, so the shards come out about even.
 */
export function assignShards(
  folderOf: Int32Array,
  shards: number,
  splitAbove = Math.max(SPLIT_AT_LEAST, folderOf.length / 32),
): Uint8Array {
  const sizes = new Map<number, number>();
  for (const folder of folderOf) sizes.set(folder, (sizes.get(folder) ?? 0) + 1);
  const load = new Array<number>(shards).fill(0);
  const shardOf = new Map<number, number>();
  const dealt = new Map<number, number>();
  for (const [folder, size] of sizes) {
    if (size <= splitAbove) continue;
    dealt.set(folder, 0);
    for (let s = 0; s < shards; s++) load[s]! += Math.floor(size / shards) + (s < size % shards ? 1 : 0);
  }
  for (const [folder, size] of [...sizes].sort((a, b) => b[1] - a[1] || a[0] - b[0])) {
    if (dealt.has(folder)) continue;
    let least = 0;
    for (let s = 1; s < shards; s++) if (load[s]! < load[least]!) least = s;
    shardOf.set(folder, least);
    load[least]! += size;
  }
  return Uint8Array.from(folderOf, (folder) => {
    const next = dealt.get(folder);
    if (next === undefined) return shardOf.get(folder)!;
    dealt.set(folder, next + 1);
    return next % shards;
  });
}

/**
 * A shard's search: `globals[i]` is the catalog index of its entry i (ascending). When the shards'
 * name matches, or name and path matches, together fill the list (`together`, see PartsTogether),
 * each answers with its own of those alone: they are the list, and nothing else needs looking at.
 */
export function searchShard(
  index: MentionIndex,
  globals: Int32Array,
  query: string,
  limit: number,
  state?: SearchState,
  together?: PartsTogether,
): ShardResult {
  const { indices, tiers, total, fuzzyRanges, fuzzyScores } = index.search(query, limit, state, together);
  const fuzzy = (n: number) => tiers[n] === Tier.Fuzzy;
  return {
    indices: indices.map((i) => globals[i]!),
    tiers,
    scores: indices.map((_, n) => (fuzzy(n) ? fuzzyScores![n]! : 0)),
    nameLengths: indices.map((i, n) => (fuzzy(n) ? index.nameLengthOf(i) : 0)),
    ranges: indices.map((i, n) => fuzzyRanges?.[n] ?? index.highlights(i, query, tiers[n]!)),
    total,
  };
}

/** The best `limit` of the shards' lists together, as one index would rank them (highlights for every row). */
export function mergeShards(results: readonly ShardResult[], limit: number): SearchResult {
  const rows = results.flatMap((r) => r.indices.map((_, n) => ({ r, n })));
  rows.sort(({ r: a, n: x }, { r: b, n: y }) => {
    const tier = a.tiers[x]! - b.tiers[y]!;
    if (tier !== 0) return tier;
    if (a.tiers[x] === Tier.Fuzzy) {
      if (a.scores[x] !== b.scores[y]) return b.scores[y]! - a.scores[x]!;
      if (a.nameLengths[x] !== b.nameLengths[y]) return a.nameLengths[x]! - b.nameLengths[y]!;
    }
    return a.indices[x]! - b.indices[y]!;
  });
  const kept = rows.slice(0, limit);
  return {
    indices: kept.map(({ r, n }) => r.indices[n]!),
    tiers: kept.map(({ r, n }) => r.tiers[n]!),
    total: results.reduce((sum, r) => sum + r.total, 0),
    fuzzyRanges: kept.map(({ r, n }) => r.ranges[n]!),
  };
}

/** Highlights for one entry without its index: every part of them is the entry's own (its name, its folder). */
export function entryHighlights(entry: IndexEntry, query: string, tier: number): [number, number][] {
  return new MentionIndex([entry]).highlights(0, query, tier);
}
