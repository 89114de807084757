import assert from "node:assert/strict";
import { unifiedDiff } from "../../../src/tools/unified-diff";

describe("a file change as a unified diff", () => {
  it("shows a changed line as a removal and an addition under a hunk header", () => {
    const diff = unifiedDiff("src/a.ts", Buffer.from("one\ntwo\nthree\n"), Buffer.from("one\n2\nthree\n"));
    const lines = diff.split("\n");
    assert.ok(lines.includes("--- a/src/a.ts"), diff);
    assert.ok(lines.includes("+++ b/src/a.ts"), diff);
    assert.ok(lines.includes("@@ -1,3 +1,3 @@"), diff);
    assert.deepEqual(
      lines.filter((l) => /^[-+][^-+]/.test(l)),
      ["-two", "+2"],
    );
  });

  it("diffs a new file against /dev/null", () => {
    const diff = unifiedDiff("notes.md", null, Buffer.from("# Notes\n"));
    assert.ok(diff.split("\n").includes("--- /dev/null"), diff);
    assert.ok(diff.split("\n").includes("+++ b/notes.md"), diff);
    assert.ok(diff.split("\n").includes("+# Notes"), diff);
  });

  it("has no hunk when nothing changed", () => {
    assert.ok(!unifiedDiff("same.txt", Buffer.from("x\n"), Buffer.from("x\n")).includes("@@"));
  });

  it("cuts a diff past 64 KiB and says so", () => {
    const after = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n"));
    const diff = unifiedDiff("big.txt", Buffer.from(""), after);
    assert.ok(diff.endsWith("\n… (diff cut at 64 KB)\n"), diff.slice(-80));
    assert.equal(diff.length, 64 * 1024 + "\n… (diff cut at 64 KB)\n".length);
  });
});
