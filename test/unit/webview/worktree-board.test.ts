// The Agents board's words (contract 7.6): status, line counts, the files a refusal names, the base's
// label, the cost; when it polls; its route; and a worktree file's inline diff.
import assert from "node:assert/strict";
import { parseRoute, routeHash } from "../../../webview/src/lib/route";
import {
  baseLabel,
  changeCounts,
  changeCountsSpoken,
  changedFilesLine,
  costWords,
  issuePaths,
  withoutListedFiles,
  needsPolling,
  STATUS_WORDS,
} from "../../../webview/src/lib/worktree-board";
import { worktreeFileDiff } from "../../../webview/src/lib/worktree-diff";

describe("worktree board words", () => {
  it("says every status in words", () => {
    assert.deepEqual(Object.values(STATUS_WORDS), ["Running", "Waiting for you", "Done", "Failed", "New"]);
  });

  it("polls only while a chat runs or waits", () => {
    assert.equal(needsPolling([]), false);
    assert.equal(needsPolling([{ status: "done" }, { status: "failed" }, { status: "new" }]), false);
    assert.equal(needsPolling([{ status: "done" }, { status: "running" }]), true);
    assert.equal(needsPolling([{ status: "waiting" }]), true);
  });

  it("counts lines with a real minus sign, and calls a file without counts binary", () => {
    assert.equal(changeCounts({ added: 1, removed: 0 }), "+1 −0");
    assert.equal(changeCounts({ added: null, removed: null }), "binary");
    assert.equal(changeCountsSpoken({ added: 1, removed: 2 }), "1 line added, 2 removed");
    assert.equal(changeCountsSpoken({ added: 3, removed: 0 }), "3 lines added, 0 removed");
    assert.equal(changeCountsSpoken({ added: null, removed: null }), "binary file");
    assert.equal(changedFilesLine(0), "No changes to merge");
    assert.equal(changedFilesLine(1), "1 file changed");
    assert.equal(changedFilesLine(4), "4 files changed");
  });

  it("takes the paths a 409 names and skips anything else in its issues", () => {
    assert.deepEqual(issuePaths(undefined), []);
    assert.deepEqual(issuePaths([{ path: "a.txt" }, { message: "x" }, null, "b", { path: 3 }, { path: "c/d.md" }]), [
      "a.txt",
      "c/d.md",
    ]);
  });

  it("names a branch base as it is and shortens a commit", () => {
    assert.equal(baseLabel("main"), "main");
    assert.equal(baseLabel("feature/x"), "feature/x");
    assert.equal(baseLabel("0123456789abcdef0123456789abcdef01234567"), "0123456789ab");
  });

  it("says an unknown cost in words", () => {
    assert.equal(costWords(null), "cost unknown");
    assert.equal(costWords(0), "cost $0");
    assert.equal(costWords(0.5), "cost $0.500");
  });
});

describe("the Agents route", () => {
  it("reads and writes a project's board, with a chat's entry or without", () => {
    assert.deepEqual(parseRoute("#/project/p1/agents"), { view: "agents", projectId: "p1" });
    assert.deepEqual(parseRoute("#/project/p1/agents/c2"), { view: "agents", projectId: "p1", chatId: "c2" });
    assert.equal(routeHash({ view: "agents", projectId: "p 1" }), "#/project/p%201/agents");
    assert.equal(routeHash(parseRoute("#/project/p1/agents/c2")), "#/project/p1/agents/c2");
    assert.deepEqual(parseRoute("#/project/p1"), { view: "chats" }, "no board without /agents");
    assert.deepEqual(parseRoute("#/project/%E0%A4%A/agents"), { view: "chats" }, "a broken escape is no id");
  });
});

describe("a worktree file's inline diff", () => {
  it("diffs the base against the worktree, an absent side as /dev/null", () => {
    const added = worktreeFileDiff({ path: "notes.txt", before: null, after: "hello\n", binary: false })!;
    assert.match(added, /--- \/dev\/null/);
    assert.match(added, /\+\+\+ b\/notes\.txt/);
    assert.match(added, /^\+hello$/m);
    const changed = worktreeFileDiff({ path: "a.txt", before: "one\ntwo\n", after: "one\n2\n", binary: false })!;
    assert.match(changed, /^-two$/m);
    assert.match(changed, /^\+2$/m);
    assert.match(changed, /^ one$/m);
    const removed = worktreeFileDiff({ path: "gone.txt", before: "x\n", after: null, binary: false })!;
    assert.match(removed, /\+\+\+ \/dev\/null/);
    assert.match(removed, /^-x$/m);
  });

  it("gives no diff for a binary file", () => {
    assert.equal(worktreeFileDiff({ path: "a.png", before: null, after: null, binary: true }), undefined);
  });
  it("drops the file names a refusal ends with when the list shows them, and keeps any other message", () => {
    const files = ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"];
    assert.equal(
      withoutListedFiles(
        "merging into main would conflict; nothing was changed: a.txt, b.txt, c.txt, d.txt, e.txt and 1 more",
        files,
      ),
      "merging into main would conflict; nothing was changed",
    );
    assert.equal(withoutListedFiles("would conflict: README.md", ["README.md"]), "would conflict");
    assert.equal(
      withoutListedFiles("the project has dev checked out; switch: it", ["x"]),
      "the project has dev checked out; switch: it",
    );
    assert.equal(
      withoutListedFiles("nothing to merge: parley/x has no changes", []),
      "nothing to merge: parley/x has no changes",
    );
  });
});
