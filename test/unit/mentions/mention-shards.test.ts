import assert from "node:assert/strict";
import fc from "fast-check";
import {
  MentionIndex,
  Tier,
  type IndexEntry,
  type PartsTogether,
  type SearchState,
} from "../../../src/shared/ranking/mention-index";
import {
  assignShards,
  entryHighlights,
  folderHash,
  mergeShards,
  searchShard,
} from "../../../src/mentions/mention-shards";

const entryOf = (path: string, other?: string): IndexEntry => ({
  path,
  nameStart: path.lastIndexOf("/") + 1,
  ...(other === undefined ? {} : { other }),
});
const pathArb = fc
  .array(
    fc.constantFrom(
      "src",
      "lib",
      "fooBar",
      "foo_bar",
      "a",
      "b",
      "x.ts",
      "Index.md",
      "bar",
      "Über",
      "résumé",
      "readMe",
      "idx",
      "v2",
      "My File",
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join("/"));
const entryArb = fc
  .tuple(pathArb, fc.option(fc.constantFrom("auth backend", "bar tag"), { nil: undefined }))
  .map(([path, other]) => entryOf(path, other));
const queryArb = fc.stringMatching(/^[a-z_./éü2 ]{1,6}$/);

/** The entries split as the threads split them (folders of more than `splitAbove` names dealt out), each shard its own index. */
function shardsOf(entries: IndexEntry[], count: number, splitAbove?: number) {
  const shardOf = assignShards(
    Int32Array.from(entries, (e) => folderHash(e.path, e.nameStart)),
    count,
    splitAbove,
  );
  return Array.from({ length: count }, (_, s) => {
    const globals = Int32Array.from(entries.flatMap((_, i) => (shardOf[i] === s ? [i] : [])));
    return { index: new MentionIndex(Array.from(globals, (i) => entries[i]!)), globals, state: {} as SearchState };
  });
}

describe("mention ranking split across shards", () => {
  it("ranks exactly as one index does, keystroke by keystroke with each shard narrowing, telling each other their counts or not, big folders whole or dealt out (property)", () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 60 }),
        queryArb,
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 2, max: 3 }),
        fc.constantFrom("no", "yes", "late"),
        fc.constantFrom(1, 2, 4, undefined),
        (entries, q, limit, count, tell, splitAbove) => {
          const whole = new MentionIndex(entries);
          const wholeState: SearchState = {};
          const shards = shardsOf(entries, count, splitAbove);
          for (let n = 1; n <= q.length; n++) {
            const typed = q.slice(0, n);
            const expected = whole.search(typed, limit, wholeState);
            // What each shard counts at each stage this keystroke (a dry run on a copy of its state), as
            // the threads tell each other (see ranking-shards.ts).
            const counts = shards.map((s) => {
              const told = [0, 0, 0];
              s.index.search(typed, limit, structuredClone(s.state), (stage, c) => ((told[stage] = c), 0));
              return told;
            });
            // Each hears the others' counts, or ("late") only those it would wait for.
            const together =
              (k: number): PartsTogether =>
              (stage, _count, wait = true) =>
                tell === "late" && !wait
                  ? 0
                  : counts.reduce((sum, other, j) => (j === k ? sum : sum + other[stage]!), 0);
            const merged = mergeShards(
              shards.map((s, k) =>
                searchShard(s.index, s.globals, typed, limit, s.state, tell === "no" ? undefined : together(k)),
              ),
              limit,
            );
            assert.deepEqual(merged.indices, expected.indices, typed);
            assert.deepEqual(merged.tiers, expected.tiers, typed);
            expected.indices.forEach((i, k) =>
              assert.deepEqual(
                merged.fuzzyRanges![k],
                expected.fuzzyRanges?.[k] ?? whole.highlights(i, typed, expected.tiers[k]!),
                `${typed} ${entries[i]!.path}`,
              ),
            );
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("orders fuzzy ties across shards by shorter name, then catalog order", () => {
    // `ab` is a fuzzy match of each; the same score, so the shorter name and then the first wins.
    const entries = ["p/aXb.ts", "q/aXbXX.ts", "r/aYb.ts"].map((p) => entryOf(p));
    const shards = shardsOf(entries, 2);
    const merged = mergeShards(
      shards.map((s) => searchShard(s.index, s.globals, "ab", 10, s.state)),
      10,
    );
    assert.deepEqual(merged.indices, new MentionIndex(entries).search("ab", 10).indices);
    assert.deepEqual(merged.tiers, [Tier.Fuzzy, Tier.Fuzzy, Tier.Fuzzy]);
  });

  it("keeps a folder whole and the shards about even", () => {
    const entries = [
      ...Array.from({ length: 6 }, (_, k) => `big/f${k}.ts`),
      ...Array.from({ length: 3 }, (_, k) => `mid/f${k}.ts`),
      ...Array.from({ length: 3 }, (_, k) => `other/f${k}.ts`),
    ].map((p) => entryOf(p));
    const shardOf = assignShards(
      Int32Array.from(entries, (e) => folderHash(e.path, e.nameStart)),
      2,
    );
    const folders = new Map<string, Set<number>>();
    entries.forEach((e, i) =>
      folders.set(
        e.path.slice(0, e.nameStart),
        (folders.get(e.path.slice(0, e.nameStart)) ?? new Set()).add(shardOf[i]!),
      ),
    );
    for (const shards of folders.values()) assert.equal(shards.size, 1);
    assert.deepEqual([...shardOf].filter((s) => s === 0).length, 6);
  });

  it("deals a folder of more names than splitAbove out among the shards, name by name, and keeps the shards about even", () => {
    const paths = [
      ...Array.from({ length: 7 }, (_, k) => `man1/p${k}.1`),
      ...Array.from({ length: 3 }, (_, k) => `mid/f${k}.ts`),
      "other/a.ts",
      "other/b.ts",
    ];
    const entries = paths.map((p) => entryOf(p));
    const shardOf = assignShards(
      Int32Array.from(entries, (e) => folderHash(e.path, e.nameStart)),
      2,
      4,
    );
    assert.deepEqual([...shardOf.subarray(0, 7)], [0, 1, 0, 1, 0, 1, 0]);
    // The dealt folder leaves 4 and 3; the whole ones go to the lighter shard: mid (3) to 1, other (2) to 0.
    assert.deepEqual([...shardOf.subarray(7)], [1, 1, 1, 0, 0]);
    // The default deals out only a folder of more than 1024 names and more than a thirty-second of all.
    const folders = (total: number, big: number) =>
      Int32Array.from({ length: total }, (_, i) => (i < big ? 1 : 2 + (i % 500)));
    assert.equal(new Set(assignShards(folders(40_000, 1300), 2).subarray(0, 1300)).size, 2);
    assert.equal(new Set(assignShards(folders(20_000, 1000), 2).subarray(0, 1000)).size, 1, "not more than 1024");
    assert.equal(
      new Set(assignShards(folders(100_000, 3000), 2).subarray(0, 3000)).size,
      1,
      "not more than a thirty-second",
    );
  });

  it("highlights an entry alone as its index does", () => {
    const entries = ["src/core/mention-rank.ts", "docs/auth.md"].map((p) => entryOf(p));
    const index = new MentionIndex(entries);
    assert.deepEqual(entryHighlights(entries[0]!, "mntnrank", Tier.Fuzzy), index.highlights(0, "mntnrank", Tier.Fuzzy));
    assert.deepEqual(entryHighlights(entries[1]!, "auth", Tier.NamePrefix), [[0, 4]]);
  });
});

describe("an index moved to another thread", () => {
  it("ranks as it did, once its snapshot has been structured-cloned with its arrays transferred (property)", () => {
    fc.assert(
      fc.property(
        fc.array(entryArb, { maxLength: 60 }),
        queryArb,
        fc.integer({ min: 1, max: 12 }),
        (entries, q, limit) => {
          const { snapshot, transfer } = new MentionIndex(entries).snapshot();
          const moved = new MentionIndex(structuredClone(snapshot, { transfer }));
          assert.equal(
            transfer.every((buffer) => buffer.byteLength === 0),
            true,
            "the arrays left with the snapshot",
          );
          const fresh = new MentionIndex(entries);
          const [a, b]: SearchState[] = [{}, {}];
          for (let n = 1; n <= q.length; n++) {
            const typed = q.slice(0, n);
            assert.deepEqual(moved.search(typed, limit, a), fresh.search(typed, limit, b), typed);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
