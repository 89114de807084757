import assert from "node:assert/strict";
import fc from "fast-check";
import {
  FolderCache,
  FolderSplits,
  FuzzyQuery,
  NameScratch,
  nameBounds,
  nameOnlyBound,
  nameSplit,
  nameTail,
  possible,
} from "../../../../src/shared/ranking/fuzzy-score";
import { MentionIndex, Tier } from "../../../../src/shared/ranking/mention-index";
import {
  bigramMask,
  charClass,
  classMask,
  twiceClassMask,
  wordStartAt,
} from "../../../../src/shared/ranking/char-classes";

// Names and folders built from parts that give word starts, humps, runs and repeats, so the
// bounds and the splits meet every case the scoring has.
const word = fc.constantFrom(
  "read",
  "me",
  "Reducer",
  "header",
  "x",
  "ab",
  "orderList",
  "idx",
  "A",
  "b2",
  "über",
  "ÜB",
  "re",
  "ad",
);
const sep = fc.constantFrom("", "-", "_", ".", " ");
const namePart = fc
  .array(fc.tuple(word, sep), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));
const folder = fc.array(namePart, { maxLength: 3 }).map((parts) => parts.map((p) => `${p}/`).join(""));
const query = fc.stringMatching(/^[a-eimrx_./ü2 -]{1,7}$/);

function nameMasks(name: string) {
  const lower = name.toLowerCase();
  let starts = 0;
  for (let k = 0; k < name.length; k++)
    if (k === 0 || wordStartAt(name, k)) starts |= 1 << charClass(lower.charCodeAt(k));
  const [low, high] = bigramMask(lower, 0);
  return { starts: starts | 0, classes: classMask(lower), low, high };
}

describe("fuzzy scoring parts", () => {
  it("never bounds a name part below its score, for any split (property)", () => {
    fc.assert(
      fc.property(namePart, query, (name, q) => {
        const fq = new FuzzyQuery(q);
        const { starts, classes, low, high } = nameMasks(name);
        const lower = name.toLowerCase();
        // Pairs from the bigram masks (a shared bucket may claim one) and from the name itself.
        const fromMasks = fq.pairsInMasks(low, high);
        const fromText = fq.pairsInText(`x\n${lower}\ny`, 2, 2 + lower.length);
        assert.equal(fromText & ~fromMasks, 0, "the name holds a pair its masks do not");
        for (const pairs of [fromMasks, fromText]) {
          const bounds = new Int32Array(fq.m);
          nameBounds(fq, starts, classes, pairs, bounds);
          const scratch = new NameScratch(fq.m);
          const lo = nameTail(fq, lower, 0, scratch);
          for (let s = lo; s < fq.m; s++) {
            const score = nameSplit(fq, lower, name, 0, s, scratch);
            assert.ok(possible(bounds[s]!) && bounds[s]! >= score, `split ${s}: bound ${bounds[s]} < score ${score}`);
          }
          // Below the tail nothing fits; the bound may say so (IMPOSSIBLE) or not, never the reverse.
          assert.equal(nameOnlyBound(fq, starts, classes, pairs), bounds[0]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("never rules out a split whose rest fits in the name, by classes or by letters it needs twice (property)", () => {
    fc.assert(
      fc.property(namePart, query, (name, q) => {
        const fq = new FuzzyQuery(q);
        const lower = name.toLowerCase();
        const fits = nameTail(fq, lower, 0, new NameScratch(fq.m));
        assert.ok(fq.firstSplit(classMask(lower), twiceClassMask(lower)) <= fits, `${q} in ${name}`);
      }),
      { numRuns: 2000 },
    );
    // `zz` cannot be all in a name with one z; its second z can.
    const fq = new FuzzyQuery("zz");
    assert.equal(fq.firstSplit(classMask("lazy.ts"), twiceClassMask("lazy.ts")), 1);
    assert.equal(fq.firstSplit(classMask("fizz.ts"), twiceClassMask("fizz.ts")), 0);
  });

  it("reads a name's own pairs where its bigram masks share a bucket: `idx` in `indexApi`", () => {
    const fq = new FuzzyQuery("idx");
    const { starts, classes, low, high } = nameMasks("indexApi");
    // `id` and `ex` share a bigram bucket: the masks claim `id`, the name has no such pair.
    assert.equal(fq.pairsInMasks(low, high) & 0b10, 0b10);
    assert.equal(fq.pairsInText("indexapi", 0, 8), 0);
    const scratch = new NameScratch(fq.m);
    nameTail(fq, "indexapi", 0, scratch);
    const score = nameSplit(fq, "indexapi", "indexApi", 0, 0, scratch);
    assert.equal(
      nameOnlyBound(fq, starts, classes, fq.pairsInText("indexapi", 0, 8)),
      score,
      "the exact pairs bound this name tightly",
    );
    assert.ok(nameOnlyBound(fq, starts, classes, fq.pairsInMasks(low, high)) > score);
  });

  it("never scores a file above the query's maxBound, which sizes the ranking's bucket queue (property)", () => {
    fc.assert(
      fc.property(folder, namePart, query, (dir, name, q) => {
        const index = new MentionIndex([{ path: dir + name, nameStart: dir.length }]);
        assert.ok(index.fuzzyScore(0, q) <= new FuzzyQuery(q.toLowerCase()).maxBound());
      }),
      { numRuns: 2000 },
    );
    // Its tightest case: a whole path of word starts in a run from the first character.
    assert.ok(
      new MentionIndex([{ path: "a/bcd", nameStart: 2 }]).fuzzyScore(0, "abcd") <= new FuzzyQuery("abcd").maxBound(),
    );
  });

  it("gives a folder the same parts typed one character at a time as worked out at once (property)", () => {
    fc.assert(
      fc.property(fc.array(folder, { minLength: 1, maxLength: 4 }), query, (folders, q) => {
        const offsets = Int32Array.from(folders, (_, d) => folders.slice(0, d).reduce((n, f) => n + f.length + 1, 0));
        const cache = new FolderCache(
          folders.map((f) => f.toLowerCase()).join("\n"),
          folders.join("\n"),
          offsets,
          Int32Array.from(folders, (f) => classMask(f.toLowerCase())),
        );
        const view = new FolderSplits(q.length);
        for (let n = 1; n <= q.length; n++) {
          const fq = new FuzzyQuery(q.slice(0, n));
          assert.ok(cache.prepare(fq.q));
          folders.forEach((dir, d) => {
            const fresh = new FolderSplits(fq.m).compute(fq, dir.toLowerCase(), dir);
            cache.take(fq, d, view);
            assert.equal(view.consumed, fresh.consumed);
            assert.equal(view.z, fresh.z);
            // Splits past what the folder holds are never read.
            for (let s = 1; s < Math.min(fq.m, fresh.consumed + 1); s++) {
              assert.equal(view.bound(s, fq.m, 0), fresh.bound(s, fq.m, 0));
              assert.equal(view.total(s, fq.m, 0, 0), fresh.total(s, fq.m, 0, 0));
              assert.equal(view.total(s, fq.m, 0, 3), fresh.total(s, fq.m, 0, 3));
            }
          });
        }
      }),
    );
  });

  it("skips only what cannot make the list: a small limit gives the head of the full ranking (property)", () => {
    // Many files in few folders, so the heap fills and the folder and file bounds decide what is read.
    const paths = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), namePart), { minLength: 1, maxLength: 80 });
    fc.assert(
      fc.property(
        fc.array(folder, { minLength: 4, maxLength: 4 }),
        paths,
        query,
        fc.integer({ min: 1, max: 12 }),
        (folders, files, q, limit) => {
          const list = [...new Set(files.map(([d, name]) => folders[d]! + name))];
          const make = () => new MentionIndex(list.map((path) => ({ path, nameStart: path.lastIndexOf("/") + 1 })));
          const typed = make();
          const state = {};
          for (let n = 1; n <= q.length; n++) {
            const prefix = q.slice(0, n);
            const full = make().search(prefix);
            const small = typed.search(prefix, limit, state);
            assert.deepEqual(small.indices, full.indices.slice(0, limit), prefix);
            assert.deepEqual(small.tiers, full.tiers.slice(0, limit), prefix);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("does the same for long queries, taken from a path so that they match (property)", () => {
    const paths = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), namePart), { minLength: 1, maxLength: 60 });
    fc.assert(
      fc.property(
        fc.array(folder, { minLength: 4, maxLength: 4 }),
        paths,
        fc.nat(),
        fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }),
        fc.integer({ min: 1, max: 8 }),
        (folders, files, pick, keep, limit) => {
          const list = [...new Set(files.map(([d, name]) => folders[d]! + name))];
          const source = list[pick % list.length]!.toLowerCase();
          // Every character the mask keeps, in order: a subsequence of that path, often past 16 characters.
          const q = [...source].filter((_, k) => keep[k % keep.length]).join("");
          if (q.length === 0) return;
          const make = () => new MentionIndex(list.map((path) => ({ path, nameStart: path.lastIndexOf("/") + 1 })));
          const typed = make();
          const state = {};
          for (let n = 1; n <= q.length; n++) {
            const prefix = q.slice(0, n);
            assert.deepEqual(
              typed.search(prefix, limit, state).indices,
              make().search(prefix).indices.slice(0, limit),
              prefix,
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("scores a file by its best split: all in the name, across, or all in the folder", () => {
    const i = new MentionIndex(
      ["src/server/routes/chats.ts", "zz/srcServerRoutes.ts", "src/server/routes/x.md"].map((path) => ({
        path,
        nameStart: path.lastIndexOf("/") + 1,
      })),
    );
    // All of q in the folder for the first and third, in the name for the second: each a fuzzy match.
    for (const n of [0, 1, 2]) assert.equal(i.tierOf(n, "ssr"), Tier.Fuzzy);
    assert.ok(i.fuzzyScore(1, "ssr") > i.fuzzyScore(0, "ssr"), "word starts in the name beat the folder's");
    // Across: "srv" in the folder, "ct" in the name.
    assert.ok(Number.isFinite(i.fuzzyScore(0, "srvct")));
    // The t after "." is a word start worth the short gap.
    assert.deepEqual(i.highlights(0, "srvct", Tier.Fuzzy), [
      [0, 1],
      [6, 7],
    ]);
  });
});
