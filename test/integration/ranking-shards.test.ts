import assert from "node:assert/strict";
import { MentionIndex, type IndexEntry, type SearchState } from "../../src/shared/ranking/mention-index";
import { FileMentions, fileCatalog, rankFiles, type FileMention } from "../../src/shared/ranking/rank-mentions";
import {
  buildRankingIndex,
  SHARD_MIN_ENTRIES,
  ShardedIndex,
  stopRankingHelper,
} from "../../src/mentions/ranking-shards";
import { generatePaths } from "../../bench/path-generator";

// The real helper thread, with a catalog big enough to be split: every keystroke must give what one
// index in one thread gives, rows, order and highlights.
const TYPED = ["readme", "userController", "src/util", "idx", "zzqx", "packages/store", "auth", "backend", "alpha"];
const keystrokes = TYPED.flatMap((q) => Array.from({ length: q.length }, (_, n) => q.slice(0, n + 1)));

function catalog(): FileMention[] {
  // 300 `alpha…` names over 97 folders: about half in each half, so only together do they fill the
  // list of 200 (each half then answers with its names alone, see namesTogether).
  const spread = Array.from({ length: 300 }, (_, k) => `spread/f${k % 97}/alpha${k}.ts`);
  return fileCatalog(
    [{ path: "docs/auth.md", tags: ["security", "backend"] }],
    [...generatePaths(SHARD_MIN_ENTRIES + 10_000, 3), ...spread],
  );
}

async function sharded(files: FileMention[], log: string[] = []): Promise<FileMentions> {
  const built = await FileMentions.build(
    files,
    async () => {},
    (entries, pause, entryAt) => buildRankingIndex(entries, pause, entryAt, (m) => log.push(m)),
  );
  assert.ok(built.index instanceof ShardedIndex, "a catalog this big is split");
  return built;
}

/** Types every query a keystroke at a time into both, a fresh state per query, and compares. */
function typeAndCompare(split: FileMentions, whole: FileMentions): void {
  let [a, b]: SearchState[] = [{}, {}];
  for (const q of keystrokes) {
    if (q.length === 1) [a, b] = [{}, {}];
    assert.deepEqual(rankFiles(split, q, {}, a), rankFiles(whole, q, {}, b), q);
  }
}

describe("ranking split across two threads", function () {
  this.timeout(120_000);
  const files = catalog();
  const whole = new FileMentions(files);

  it("ranks as one index does, keystroke by keystroke, tags included", async () => {
    const split = await sharded(files);
    typeAndCompare(split, whole);
    assert.equal(rankFiles(split, "backend", {})[0]?.insertText, "@docs/auth.md");
    split.index.dispose?.();
  });

  it("answers an unlimited search whole from both halves (tens of thousands of rows)", async () => {
    const split = await sharded(files);
    const all = split.index.search("e", Infinity);
    const expected = whole.index.search("e", Infinity);
    assert.ok(all.indices.length > 20_000, `${all.indices.length} rows`);
    assert.deepEqual(all.indices, expected.indices);
    assert.deepEqual(all.tiers, expected.tiers);
    split.index.dispose?.();
  });

  it("keeps two typists' narrowing apart on both halves", async () => {
    const split = await sharded(files);
    const [s1, s2, w1, w2]: SearchState[] = [{}, {}, {}, {}];
    for (let n = 1; n <= 8; n++) {
      const q1 = "readme.md".slice(0, n);
      const q2 = "userCont".slice(0, n);
      assert.deepEqual(rankFiles(split, q1, {}, s1), rankFiles(whole, q1, {}, w1), q1);
      assert.deepEqual(rankFiles(split, q2, {}, s2), rankFiles(whole, q2, {}, w2), q2);
    }
    split.index.dispose?.();
  });

  it("goes on in one thread, with the same results, when the helper is lost", async () => {
    const log: string[] = [];
    const split = await sharded(files, log);
    assert.ok(rankFiles(split, "read", {}).length > 0);
    await stopRankingHelper();
    typeAndCompare(split, whole);
    assert.ok(
      log.some((m) => /ranking in one thread from now on/.test(m)),
      log.join("\n"),
    );
    // The next big index starts a new helper.
    const next = await sharded(files);
    typeAndCompare(next, whole);
    next.index.dispose?.();
  });

  it("still ranks as one index does after dispose, the helper's half rebuilt here", async () => {
    const log: string[] = [];
    const split = await sharded(files, log);
    split.index.dispose?.();
    typeAndCompare(split, whole);
    assert.ok(
      log.some((m) => /the helper's half was released/.test(m)),
      log.join("\n"),
    );
  });

  it("keeps a small catalog in one index (handing a half over would cost more than it saves)", async () => {
    const small: IndexEntry[] = generatePaths(1000).map((path) => ({ path, nameStart: path.lastIndexOf("/") + 1 }));
    assert.ok(
      (await buildRankingIndex(
        small,
        async () => {},
        (i) => small[i]!,
      )) instanceof MentionIndex,
    );
  });
});
