import assert from "node:assert/strict";
import fc from "fast-check";
import { MentionIndex, Tier } from "../../../../src/shared/ranking/mention-index";
import { FileMentions, fileCatalog, fileFolder, rankMentions } from "../../../../src/shared/ranking/rank-mentions";
import type { MentionItem } from "../../../../src/shared/mentions";

const index = (paths: string[]) =>
  new MentionIndex(paths.map((path) => ({ path, nameStart: path.lastIndexOf("/") + 1 })));
const ranked = (paths: string[], q: string) => {
  const i = index(paths);
  return i.search(q).indices.map((n) => paths[n]);
};
const tier = (path: string, q: string, other?: string) =>
  new MentionIndex([{ path, nameStart: path.lastIndexOf("/") + 1, other }]).tierOf(0, q.toLowerCase());

const pathArbShared = fc
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
      "@s-c",
      "v2",
      "My File",
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join("/"));
const queryArbShared = fc.stringMatching(/^[a-z_./@éü2 ]{1,5}$/);

describe("mention ranking tiers", () => {
  it("puts an exact name first", () => assert.equal(tier("src/foo.ts", "foo.ts"), Tier.Exact));
  it("then a name prefix", () => assert.equal(tier("src/fooBar.ts", "foo"), Tier.NamePrefix));
  it("then a word start after / _ . - : or a camelCase hump", () => {
    assert.equal(tier("src/fooBar.ts", "bar"), Tier.NameWordStart);
    assert.equal(tier("foo_bar.py", "bar"), Tier.NameWordStart);
    assert.equal(tier("a/foo.md", "md"), Tier.NameWordStart);
    assert.equal(tier("x/my-thing.ts", "thing"), Tier.NameWordStart);
    assert.equal(tier("x/ns:item", "item"), Tier.NameWordStart);
  });
  it("then a name substring", () => assert.equal(tier("src/foobar.ts", "oba"), Tier.NameSubstring));
  it("then a path prefix", () => assert.equal(tier("src/zzz.ts", "sr"), Tier.PathPrefix));
  it("then a path substring", () => assert.equal(tier("a/src/zzz.ts", "src"), Tier.PathSubstring));
  it("then other search text such as tags", () => assert.equal(tier("a/zzz.ts", "auth", "auth backend"), Tier.Other));
  it("then a fuzzy subsequence of the path", () => assert.equal(tier("src/fooBar.ts", "sfb"), Tier.Fuzzy));
  it("matches characters outside a-z (accents, symbols, digits) in every tier", () => {
    assert.equal(tier("docs/résumé.md", "résumé.md"), Tier.Exact);
    assert.equal(tier("x/@scope-pkg.json", "@sc"), Tier.NamePrefix);
    assert.equal(tier("x/v2Über.ts", "über"), Tier.NameWordStart);
    assert.equal(tier("x/a.ts", "a", "ümlaut tag"), Tier.NamePrefix);
    assert.equal(tier("x/b.ts", "ümlaut", "ümlaut tag"), Tier.Other);
    assert.deepEqual(ranked(["x/@scope-pkg.json", "y/résumé.md"], "é"), ["y/résumé.md"]);
  });

  it("and nothing when even that fails", () => assert.equal(tier("src/fooBar.ts", "xyz"), -1));
  it("is case-insensitive", () => assert.equal(tier("SRC/FooBar.TS", "foobar.ts"), Tier.Exact));
  it("finds word starts past the 32nd character of a long name", () => {
    assert.equal(tier(`x/${"a".repeat(40)}_target.ts`, "target"), Tier.NameWordStart);
    assert.equal(tier(`x/${"a".repeat(40)}target.ts`, "target"), Tier.NameSubstring);
  });

  it("orders a mixed list by tier and keeps catalog order on ties", () => {
    const paths = ["lib/zbar.ts", "src/fooBar.ts", "bar.md", "docs/bar/x.md", "b/a/r.txt", "src/barber.ts", "bar"];
    assert.deepEqual(ranked(paths, "bar"), [
      "bar",
      "bar.md",
      "src/barber.ts",
      "src/fooBar.ts",
      "lib/zbar.ts",
      "docs/bar/x.md",
      "b/a/r.txt",
    ]);
  });

  it("highlights the matched characters in the name", () => {
    const i = index(["src/fooBar.ts", "x/abc.ts"]);
    assert.deepEqual(i.highlights(0, "bar", Tier.NameWordStart), [[3, 6]]);
    assert.deepEqual(i.highlights(1, "xac", Tier.Fuzzy), [
      [0, 1],
      [2, 3],
    ]);
    assert.deepEqual(i.highlights(0, "src/foo", Tier.PathPrefix), [[0, 3]]);
  });

  it("narrows incrementally and gives the same answer as a fresh index", () => {
    const paths = ["src/app.ts", "src/api/client.ts", "apps/web/page.tsx", "README.md", "a/p/i.txt"];
    const growing = index(paths);
    for (const q of ["a", "ap", "api", "apic"]) {
      assert.deepEqual(growing.search(q).indices, index(paths).search(q).indices, q);
    }
    // Backspace (a query that does not extend the last one) starts over.
    assert.deepEqual(growing.search("ap").indices, index(paths).search("ap").indices);
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
        "@s-c",
        "v2",
        "My File",
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((parts) => parts.join("/"));
  const queryArb = fc.stringMatching(/^[a-z_./@éü2 ]{1,5}$/);

  /** Rule 9 written the slow, obvious way: the oracle for the optimised index. */
  function referenceTier(path: string, q: string, other?: string): number {
    const lower = path.toLowerCase();
    const ns = path.lastIndexOf("/") + 1;
    const name = lower.slice(ns);
    const isWordStart = (k: number) => {
      if (k === 0) return true;
      const prev = path[ns + k - 1]!;
      const cur = path[ns + k]!;
      return (
        "/_.-: ".includes(prev) || ((prev !== prev.toUpperCase() || /[0-9]/.test(prev)) && cur !== cur.toLowerCase())
      );
    };
    if (name === q) return Tier.Exact;
    if (name.startsWith(q)) return Tier.NamePrefix;
    for (let k = name.indexOf(q); k !== -1; k = name.indexOf(q, k + 1)) if (isWordStart(k)) return Tier.NameWordStart;
    if (name.includes(q)) return Tier.NameSubstring;
    if (lower.startsWith(q)) return Tier.PathPrefix;
    if (lower.includes(q)) return Tier.PathSubstring;
    if (other?.toLowerCase().includes(q)) return Tier.Other;
    let at = 0;
    for (const c of q) {
      at = lower.indexOf(c, at);
      if (at === -1) return -1;
      at++;
    }
    return Tier.Fuzzy;
  }

  it("agrees with a plain reading of rule 9 for every entry (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(pathArb, fc.option(fc.constantFrom("auth tag", "ümlaut"), { nil: undefined })), {
          maxLength: 40,
        }),
        queryArb,
        (rows, q) => {
          const i = new MentionIndex(
            rows.map(([path, other]) => ({ path, nameStart: path.lastIndexOf("/") + 1, other })),
          );
          // Typed one character at a time, so the narrowing and per-name paths are checked too.
          for (let length = 1; length <= q.length; length++) {
            const prefix = q.slice(0, length);
            const { indices, tiers } = i.search(prefix);
            const expected = rows
              .map(([path, other], n) => [n, referenceTier(path, prefix, other)] as const)
              .filter(([, t]) => t !== -1);
            expected.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
            // Tiers exactly; inside the real tiers catalog order; the fuzzy tier is ordered by quality.
            assert.deepEqual(
              tiers,
              expected.map(([, t]) => t),
              `query "${prefix}"`,
            );
            const realCount = expected.filter(([, t]) => t !== Tier.Fuzzy).length;
            assert.deepEqual(
              indices.slice(0, realCount),
              expected.slice(0, realCount).map(([n]) => n),
              `query "${prefix}"`,
            );
            assert.deepEqual(
              [...indices.slice(realCount)].sort((a, b) => a - b),
              expected.slice(realCount).map(([n]) => n),
              `query "${prefix}"`,
            );
          }
          for (let n = 0; n < rows.length; n++)
            assert.equal(i.tierOf(n, q), referenceTier(rows[n]![0], q, rows[n]![1]));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("ranks queries with `/` (across folders and into the name) as the plain reading does (property)", () => {
    // Queries cut from the paths themselves, so they often span one or more `/`: the per-folder
    // memo of which query heads a folder ends with must give what a plain search of each path gives.
    const deepPathArb = fc
      .array(fc.constantFrom("src", "lib", "src/lib", "a", "b", "ab", "fooBar", "x.ts", "a.ts", "Über", "s"), {
        minLength: 1,
        maxLength: 6,
      })
      .map((parts) => parts.join("/"));
    const caseArb = fc.array(deepPathArb, { minLength: 1, maxLength: 40 }).chain((paths) =>
      fc.tuple(
        fc.constant(paths),
        fc.oneof(
          fc
            .tuple(fc.nat(paths.length - 1), fc.nat(40), fc.nat(12))
            .map(([n, from, length]) => paths[n]!.toLowerCase().slice(from, from + length + 1)),
          fc.stringMatching(/^[abs/]{1,8}$/),
        ),
      ),
    );
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 1, max: 8 }), ([paths, q], limit) => {
        if (q === "") return;
        const growing = index(paths);
        const state = {};
        for (let length = 1; length <= q.length; length++) {
          const prefix = q.slice(0, length);
          const { indices, tiers } = index(paths).search(prefix);
          const expected = paths
            .map((path, n) => [n, referenceTier(path, prefix)] as const)
            .filter(([, t]) => t !== -1);
          expected.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
          assert.deepEqual(
            tiers,
            expected.map(([, t]) => t),
            `query "${prefix}"`,
          );
          const realCount = expected.filter(([, t]) => t !== Tier.Fuzzy).length;
          assert.deepEqual(
            indices.slice(0, realCount),
            expected.slice(0, realCount).map(([n]) => n),
            `query "${prefix}"`,
          );
          // Typed one character at a time with a small limit: the same as a fresh full search.
          const typed = growing.search(prefix, limit, state);
          assert.deepEqual(
            { indices: typed.indices, tiers: typed.tiers },
            { indices: indices.slice(0, limit), tiers: tiers.slice(0, limit) },
            `typed "${prefix}"`,
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it("never matches a query with a newline across two names or two folders (searched joined by newlines; no path has one)", () => {
    const paths = ["a/xy.ts", "b/zw.ts", "c/d/e.ts"];
    // Enough files that the names and folders are searched joined, not one by one.
    const many = [...paths, ...Array.from({ length: 40 }, (_, n) => `f${n}/g${n}.md`)];
    for (const q of ["ts\nzw", "a/\nb", "xy.ts\nz"])
      assert.deepEqual(index(many).search(q).indices, [], JSON.stringify(q));
  });

  it("finds a query with more `/` than the folder memo holds across the last one", () => {
    const deep = `${"a/".repeat(35)}xy.ts`;
    const query = `${"a/".repeat(35)}x`;
    assert.equal(tier(deep, query), Tier.PathPrefix);
    assert.equal(tier(`b/${deep}`, query), Tier.PathSubstring);
    assert.equal(tier(`${"a/".repeat(40)}xy.ts`, query), Tier.PathSubstring);
    assert.equal(tier(`${"a/".repeat(36)}ya/xy.ts`, query), Tier.Fuzzy);
    // The same through a search (folders searched joined, the name tested across the folder's end),
    // and a folder that ends with none of the first heads but with a later one.
    const distinct = `${Array.from({ length: 35 }, (_, n) => `s${n}`).join("/")}/`;
    const paths = [deep, `b/${deep}`, `${"a/".repeat(40)}xy.ts`, `${"a/".repeat(36)}ya/xy.ts`];
    assert.deepEqual(index(paths).search(query).tiers, [
      Tier.PathPrefix,
      Tier.PathSubstring,
      Tier.PathSubstring,
      Tier.Fuzzy,
    ]);
    assert.deepEqual(index([`${distinct}xy.ts`]).search(`${distinct}x`).tiers, [Tier.PathPrefix]);
  });

  it("returns a permutation of the matches, stable, with no fuzzy match above a real one (property)", () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 40 }), queryArb, (paths, q) => {
        const i = index(paths);
        const { indices, tiers, total } = i.search(q);
        const expected = paths.map((_, n) => n).filter((n) => i.tierOf(n, q) !== -1);
        assert.equal(total, expected.length);
        assert.deepEqual(
          [...indices].sort((a, b) => a - b),
          expected,
          "a permutation of the matches",
        );
        const nameLength = (n: number) => paths[n]!.length - paths[n]!.lastIndexOf("/") - 1;
        for (let n = 1; n < indices.length; n++) {
          const [a, b] = [indices[n - 1]!, indices[n]!];
          assert.ok(tiers[n - 1]! <= tiers[n]!, "ordered by tier");
          if (tiers[n - 1] !== tiers[n]) continue;
          if (tiers[n] !== Tier.Fuzzy) assert.ok(a < b, "real ties keep catalog order");
          else {
            const [sa, sb] = [i.fuzzyScore(a, q), i.fuzzyScore(b, q)];
            assert.ok(sa >= sb, "fuzzy matches best first");
            if (sa === sb)
              assert.ok(
                nameLength(a) < nameLength(b) || (nameLength(a) === nameLength(b) && a < b),
                "then shorter names, then catalog order",
              );
          }
        }
        const firstFuzzy = tiers.indexOf(Tier.Fuzzy);
        if (firstFuzzy !== -1) assert.ok(tiers.slice(firstFuzzy).every((t) => t === Tier.Fuzzy));
      }),
    );
  });

  it("narrowing never changes a result (property)", () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 30 }), queryArb, (paths, q) => {
        const growing = index(paths);
        for (let n = 1; n <= q.length; n++)
          assert.deepEqual(growing.search(q.slice(0, n)).indices, index(paths).search(q.slice(0, n)).indices);
      }),
    );
  });
});

describe("fuzzy match quality", () => {
  it("prefers word starts and camelCase humps over scattered characters", () => {
    const paths = [
      "src/xchatxturnx/zz.md",
      "lib/EditorPublisherPlan.ts",
      "webview/languageTurnConfig.tsx",
      "src/services/chat-turn.ts",
    ];
    assert.equal(ranked(paths, "ChatTurn")[0], "src/services/chat-turn.ts");
    assert.deepEqual(ranked(["a/cart.ts", "b/cartotal.ts", "c/cartTotal.ts"], "ctt").slice(0, 1), ["c/cartTotal.ts"]);
  });

  it("prefers contiguous runs and matches in the folder path typed as such", () => {
    const paths = [
      "src/EditorPublisherPlan.ts",
      "webview/src/languageTurnConfig.tsx",
      "src/server/routes/chats.ts",
      "src/server/routes/mentions.ts",
    ];
    assert.deepEqual(ranked(paths, "src/serv/rout").slice(0, 2), [
      "src/server/routes/chats.ts",
      "src/server/routes/mentions.ts",
    ]);
  });

  it("prefers matches in the name and shorter names; exact quality ties keep catalog order", () => {
    assert.deepEqual(ranked(["mention/rank/x.ts", "src/core/mention-rank.ts"], "mntnrank"), [
      "src/core/mention-rank.ts",
      "mention/rank/x.ts",
    ]);
    assert.deepEqual(ranked(["b/fooBarBaz.ts", "a/fooBar.ts"], "fbr"), ["a/fooBar.ts", "b/fooBarBaz.ts"]);
    assert.deepEqual(ranked(["b/fxb.ts", "a/fxb.ts"], "fb"), ["b/fxb.ts", "a/fxb.ts"]);
  });

  it("never lets a fuzzy match beat a real one, however good it is", () => {
    const paths = ["zz/xqcurrentxq.md", "src/quickCurrent.ts"];
    // "qc" is a substring of the first name (real) and only a word-start fuzzy match of the second.
    assert.deepEqual(ranked(paths, "qc"), ["zz/xqcurrentxq.md", "src/quickCurrent.ts"]);
  });

  it("never matches a query across two names: a newline is a name's own character, a NUL matches nothing", () => {
    const i = index(["a/line\nbreak.ts", "b/tail", "c/head.md"]);
    // Names are joined into one string; the join must not look like part of a name.
    assert.deepEqual(i.search("\n").indices, [0]);
    assert.deepEqual(i.search("l\nh").indices, []);
    assert.deepEqual(i.search("\u0000").indices, []);
    assert.deepEqual(i.search("tail\u0000head").indices, []);
    assert.equal(i.tierOf(0, "line\nbr"), Tier.NamePrefix);
  });

  it("keeps a name's positions where lower case would lengthen it (`İ`): highlights land on the typed characters", () => {
    const i = index(["x/İstanbulMap.ts", "y/KİTAP.md"]);
    assert.deepEqual(i.highlights(0, "stan", i.tierOf(0, "stan")), [[1, 5]]);
    assert.equal(i.tierOf(0, "map"), Tier.NameWordStart);
    assert.deepEqual(i.highlights(0, "map", Tier.NameWordStart), [[8, 11]]);
    assert.deepEqual(i.highlights(1, "tap", i.tierOf(1, "tap")), [[2, 5]]);
  });

  it("highlights the characters the score counted", () => {
    const i = index(["src/core/mention-rank.ts"]);
    assert.deepEqual(i.highlights(0, "mntnrank", Tier.Fuzzy), [
      [0, 1],
      [2, 4],
      [6, 7],
      [8, 12],
    ]);
  });

  it("gives each fuzzy result the highlights highlights() gives it, found while ranking (property)", () => {
    fc.assert(
      fc.property(
        fc.array(pathArbShared, { maxLength: 40 }),
        queryArbShared,
        fc.integer({ min: 1, max: 8 }),
        (paths, q, limit) => {
          const i = index(paths);
          const state = {};
          for (let n = 1; n <= q.length; n++) {
            const typed = q.slice(0, n);
            const { indices, tiers, fuzzyRanges } = i.search(typed, limit, state);
            indices.forEach((entry, k) => {
              if (tiers[k] === Tier.Fuzzy)
                assert.deepEqual(
                  fuzzyRanges?.[k],
                  index(paths).highlights(entry, typed, Tier.Fuzzy),
                  `${typed} ${paths[entry]}`,
                );
              else assert.equal(fuzzyRanges?.[k], undefined);
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("keeps narrowing state per caller: interleaved typists get what each gets alone (property)", () => {
    fc.assert(
      fc.property(fc.array(pathArbShared, { maxLength: 40 }), queryArbShared, queryArbShared, (paths, q1, q2) => {
        const shared = index(paths);
        const [s1, s2] = [{}, {}];
        for (let n = 1; n <= Math.max(q1.length, q2.length); n++) {
          if (n <= q1.length)
            assert.deepEqual(shared.search(q1.slice(0, n), 200, s1), index(paths).search(q1.slice(0, n), 200));
          if (n <= q2.length)
            assert.deepEqual(shared.search(q2.slice(0, n), 200, s2), index(paths).search(q2.slice(0, n), 200));
        }
      }),
    );
  });

  it("answers from the name matches alone when they fill the limit, exactly as the full pass (property)", () => {
    // Small limits make the name tiers fill the list often, so the shortcut that skips the other
    // tiers is taken; typed one character at a time, two typists interleaved on one index.
    const typed = fc.oneof(
      queryArbShared,
      fc.constantFrom(
        "foo",
        "fooba",
        "bar",
        "b",
        "a",
        "x.ts",
        "src",
        "lib",
        "index",
        "fb",
        "ub",
        "über",
        "résu",
        "my f",
        "v2",
        "s-c",
      ),
    );
    fc.assert(
      fc.property(
        fc.array(pathArbShared, { maxLength: 60 }),
        typed,
        typed,
        fc.integer({ min: 1, max: 6 }),
        (paths, q1, q2, limit) => {
          const shared = index(paths);
          const [s1, s2] = [{}, {}];
          const expected = (q: string) => {
            const { indices, tiers } = index(paths).search(q);
            return { indices: indices.slice(0, limit), tiers: tiers.slice(0, limit) };
          };
          for (let n = 1; n <= Math.max(q1.length, q2.length); n++) {
            for (const [q, state] of [
              [q1, s1],
              [q2, s2],
            ] as const) {
              if (n > q.length) continue;
              const { indices, tiers } = shared.search(q.slice(0, n), limit, state);
              assert.deepEqual({ indices, tiers }, expected(q.slice(0, n)), q.slice(0, n));
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives the same list from path matches counted by folder as from reading each candidate (property)", () => {
    // Many files in few folders, queries that occur in folders, cross a folder's end into a name, or
    // both, and limits the name and path tiers fill: the list is then made by folder (both ways of
    // taking the first in catalog order), and must be the head of the full list.
    const dir = fc.constantFrom("src/", "lib/src/", "src/util/", "a/b/", "pkg/src/ui/", "", "x/srcu/", "b/", "uSrc/");
    const name = fc.constantFrom("util.ts", "ui.tsx", "b.md", "src.ts", "user.ts", "x", "Ub.go", "a", "rc.ts");
    const paths = fc.uniqueArray(
      fc.tuple(dir, name).map(([d, n]) => d + n),
      { minLength: 1, maxLength: 80 },
    );
    const q = fc.constantFrom(
      "src/",
      "src/u",
      "c/u",
      "b/",
      "a/b/u",
      "src",
      "u",
      "rc/ui",
      "/",
      "s/b",
      "ui",
      "b/x",
      "src/util/u",
      "util",
    );
    fc.assert(
      fc.property(paths, q, fc.integer({ min: 1, max: 40 }), (list, query, limit) => {
        const full = index(list).search(query);
        const { indices, tiers } = index(list).search(query, limit);
        assert.deepEqual(
          { indices, tiers },
          { indices: full.indices.slice(0, limit), tiers: full.tiers.slice(0, limit) },
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("ranks a query with `/` as scoring each file on its own would, whatever the limit (property)", () => {
    // Folders of many files and few, queries that match across folders, in a folder and fuzzily:
    // the bounds may skip only what cannot make the list.
    const dir = fc
      .array(fc.constantFrom("src", "pkgs", "store-ui", "utilTools", "s", "lib", "a_b", "Stores"), {
        minLength: 1,
        maxLength: 3,
      })
      .map((parts) => `${parts.join("/")}/`);
    const name = fc.constantFrom(
      "storeUtil.ts",
      "sut.md",
      "user_store.py",
      "s.ts",
      "Util.tsx",
      "tools.go",
      "b",
      "ustore.rs",
    );
    const paths = fc.uniqueArray(
      fc.tuple(dir, name).map(([d, n]) => d + n),
      { minLength: 1, maxLength: 80 },
    );
    const q = fc.constantFrom(
      "sr/ut",
      "pk/st",
      "s/u",
      "st/ut",
      "src/st",
      "l/ab",
      "ut/s",
      "ps/su",
      "/st",
      "st/",
      "s/s/t",
    );
    // The oracle scores each file on its own: every real tier in catalog order, then fuzzy matches
    // by score, shorter name, catalog order.
    const oracle = (list: string[], query: string) => {
      const i = index(list);
      const rows = list.map((p, n) => ({
        n,
        tier: i.tierOf(n, query),
        score: i.fuzzyScore(n, query),
        name: p.length - p.lastIndexOf("/") - 1,
      }));
      return rows
        .filter((r) => r.tier !== -1)
        .sort(
          (a, b) => a.tier - b.tier || (a.tier === Tier.Fuzzy ? b.score - a.score || a.name - b.name : 0) || a.n - b.n,
        )
        .map((r) => [r.n, r.tier]);
    };
    // Few folders with many files each as well (the first look then takes every folder in order).
    const crowded = fc
      .uniqueArray(
        fc.tuple(
          fc.constantFrom("src/", "pkgs/store/", "lib/Util/", "a_b/", "s/t/"),
          name,
          fc.integer({ min: 0, max: 30 }),
        ),
        { minLength: 25, maxLength: 80, selector: ([d, n, k]) => `${d}${k}${n}` },
      )
      .map((files) => files.map(([d, n, k]) => `${d}${k}${n}`));
    fc.assert(
      fc.property(fc.oneof(paths, crowded), q, fc.integer({ min: 1, max: 20 }), (list, query, limit) => {
        const { indices, tiers } = index(list).search(query, limit);
        assert.deepEqual(
          indices.map((n, k) => [n, tiers[k]]),
          oracle(list, query).slice(0, limit),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it("limits the fuzzy tier to the best matches without changing their order", () => {
    const paths = Array.from({ length: 300 }, (_, n) => `d${n % 7}/f${n}_x${n % 13}oo.ts`);
    const all = index(paths).search("fxo").indices;
    assert.deepEqual(index(paths).search("fxo", 10).indices, all.slice(0, 10));
  });
});

describe("mention results", () => {
  const others: MentionItem[] = [
    {
      category: "agents",
      label: "reviewer",
      detail: "anthropic/claude-sonnet-4",
      insertText: "@reviewer ",
      searchText: "Reviews code",
    },
    { category: "actions", label: "Run tests", detail: "npm test", insertText: "@test", searchText: "test npm test" },
    { category: "tools", label: "shell", detail: "Run a shell command", insertText: "@shell:cmd=``" },
    { category: "tools", label: "task", detail: "Task list", insertText: "@task" },
    { category: "mcp", label: "read_file", detail: "fs · Read", insertText: "@mcp__fs__read_file" },
    { category: "model", label: "openai/gpt-4o-mini", detail: "Current model", insertText: "@openai/gpt-4o-mini" },
  ];
  const files = new FileMentions(
    fileCatalog(
      [{ path: "docs/auth.md", tags: ["security"] }],
      ["README.md", "src/reviewer.ts", "src/a.ts", "src/b.ts", "src/c.ts", "docs/auth.md"],
    ),
  );

  it("puts tagged files first and does not list them twice", () => {
    assert.deepEqual(
      files.files.map((f) => f.path),
      ["docs/auth.md", "README.md", "src/reviewer.ts", "src/a.ts", "src/b.ts", "src/c.ts"],
    );
  });

  it("shows the folder under each file, Project root for root files", () => {
    assert.equal(fileFolder("README.md"), "Project root");
    assert.equal(fileFolder("a/b/c.ts"), "a/b");
  });

  it("shows four of each category with an empty query, files first", () => {
    const all = rankMentions(files, others, "");
    assert.deepEqual(
      all.map((r) => r.category),
      ["files", "files", "files", "files", "agents", "actions", "tools", "tools", "mcp", "model"],
    );
  });

  it("shows one category uncapped when its chip is chosen, and an empty category stays empty", () => {
    assert.equal(rankMentions(files, others, "", { category: "files" }).length, 6);
    assert.deepEqual(rankMentions(files, [], "", { category: "mcp" }), []);
  });

  it("puts matching files ahead of everything else, relevance inside each group", () => {
    const results = rankMentions(files, others, "review");
    assert.deepEqual(
      results.map((r) => [r.category, r.label]),
      [
        ["files", "reviewer.ts"],
        ["agents", "reviewer"],
      ],
    );
    assert.deepEqual(results[0]!.highlights, [[0, 6]]);
    assert.equal(results[0]!.insertText, "@src/reviewer.ts");
    assert.equal(results[0]!.detail, "src");
  });

  it("finds a tagged file by its tag and an action by its description", () => {
    assert.deepEqual(
      rankMentions(files, others, "security").map((r) => r.label),
      ["auth.md"],
    );
    // The description match is real; the model id matches only as a fuzzy subsequence, so it comes after.
    assert.deepEqual(
      rankMentions(files, others, "npm").map((r) => r.label),
      ["Run tests", "openai/gpt-4o-mini"],
    );
  });

  it("returns nothing (so the popup can say so) for a query without matches", () => {
    assert.deepEqual(rankMentions(files, others, "zzzzqqq"), []);
  });

  it("caps files at about 200 after matching, and drops the per-category cap while searching", () => {
    const many = new FileMentions(
      fileCatalog(
        [],
        Array.from({ length: 1000 }, (_, i) => `dir/file${i}.ts`),
      ),
    );
    const results = rankMentions(many, others, "file");
    assert.equal(results.filter((r) => r.category === "files").length, 200);
    assert.equal(results[0]!.label, "file0.ts");
    const toolsOnly = rankMentions(many, others, "s", { category: "tools" });
    assert.deepEqual(
      toolsOnly.map((r) => r.label),
      ["shell", "task"],
    );
  });
});
