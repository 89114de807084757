import assert from "node:assert/strict";
import fc from "fast-check";
import { ignoredDirsPatterns } from "../../../src/mentions/watch-ignore";
import { SKIPPED_DIRS } from "../../../src/mentions/project-scan";

// @parcel/watcher matches a RegExp ignore anywhere in the path relative to the watched folder, as
// RegExp.test does: these tests use test().
const ignored = (patterns: RegExp[], relPath: string) => patterns.some((pattern) => pattern.test(relPath));

describe("the file watcher's ignore pattern", () => {
  const patterns = ignoredDirsPatterns([...SKIPPED_DIRS]);

  it("matches a skipped folder at any depth, by its whole name, with either separator", () => {
    for (const relPath of [
      "node_modules",
      ".git",
      "a/node_modules",
      "a/b/c/.venv",
      "packages\\x\\node_modules",
      "src/__pycache__",
    ])
      assert.ok(ignored(patterns, relPath), relPath);
    for (const relPath of [
      "node_modules_x",
      "xnode_modules",
      "a/my.git",
      "a/xgit",
      "agit",
      "src/venv2",
      "node_modules.md",
      "a/.cache-dir",
      ".gitignore",
    ])
      assert.ok(!ignored(patterns, relPath), relPath);
  });

  it("agrees with comparing the last part of the path by name, for any names and paths", () => {
    const part = fc.stringMatching(/^[a-z.+()[\]*?^$|\\{}_-]{1,6}$/).filter((p) => !p.includes("\\"));
    fc.assert(
      fc.property(
        fc.uniqueArray(part, { minLength: 1, maxLength: 5 }),
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        (names, parts, pick) => {
          if (pick % 2 === 0) parts[parts.length - 1] = names[pick % names.length]!;
          assert.equal(ignored(ignoredDirsPatterns(names), parts.join("/")), names.includes(parts.at(-1)!));
        },
      ),
    );
  });

  it("gives no pattern for no names (nothing is ignored)", () => {
    assert.deepEqual(ignoredDirsPatterns([]), []);
  });
});
