// Worktree chats with real git (contract 7.6): each chat works in a worktree of its own on a branch
// `parley/<slug>`; the project's tree is untouched until a merge; merge and squash land on the base; a
// conflict, uncommitted changes in the way, another branch checked out and two merges at once change
// nothing they should not; discard leaves no branch and no folder. Bad input: worktree-chats-bad-input.test.ts.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { branches, commitFile, git, repoState, treeDigest } from "../helpers/git-repo";
import { readEvents } from "../helpers/sse";
import { makeTempDir, removeDir } from "../helpers/temp";
import {
  discard,
  gitProject,
  issuePaths,
  merge,
  refusal,
  startTurn,
  toolResults,
  turn,
  worktreeChat,
  worktreeInfo,
  type WorktreeInfo,
} from "../helpers/worktree-chats";

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");
const parentsOf = (dir: string, rev: string) => git(dir, "rev-list", "--parents", "-n", "1", rev).split(" ").slice(1);

describe("worktree chats with real git", function () {
  this.timeout(120_000);
  let f: ChatFixture;
  let root: string;
  before(async () => {
    f = await startChatFixture();
    root = makeTempDir();
    const res = await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } });
    assert.ok(res.ok, await res.text());
  });
  after(async () => {
    await f.stop();
    removeDir(root);
  });

  it("writes in its own worktree, then merges into the base", async () => {
    const p = await gitProject(f, root, "smoke");
    const chat = await worktreeChat(f, p, "Add notes");
    const info = await worktreeInfo(f, chat.id);
    assert.equal(info.branch, "parley/add-notes");
    assert.equal(info.base, "main");
    assert.ok(!info.path.startsWith(p.dir + path.sep), "the worktree lives outside the project");
    await turn(f, chat.id, "write: notes.txt hello there");
    assert.ok(!fs.existsSync(path.join(p.dir, "notes.txt")), "the project is untouched");
    assert.equal(read(info.path, "notes.txt"), "hello there");
    const after = await worktreeInfo(f, chat.id);
    assert.deepEqual(after.changedFiles, [{ path: "notes.txt", added: 1, removed: 0 }]);
    const merged = await merge(f, chat.id, "merge");
    assert.equal(merged.status, 200, await merged.clone().text());
    assert.equal(read(p.dir, "notes.txt"), "hello there");
    const board = await (await f.s.api("GET", `/api/projects/${p.id}/worktree-chats`)).json();
    assert.equal(board.entries.length, 1);
    assert.equal(board.entries[0].status, "done");
  });

  it("runs three chats' turns at once, each file only in its own worktree; merge and squash land on main, the third waits", async () => {
    const p = await gitProject(f, root, "three");
    const before = repoState(p.dir);
    const names = ["alpha", "beta", "gamma"];
    const chats = [];
    for (const name of names) chats.push(await worktreeChat(f, p, `Work on ${name}`));
    const infos = await Promise.all(chats.map((chat) => worktreeInfo(f, chat.id)));
    assert.equal(new Set(infos.map((info) => info.path)).size, 3, "three worktrees");
    assert.deepEqual(
      infos.map((info) => info.branch),
      names.map((name) => `parley/work-on-${name}`),
    );

    // All three sends first, then all three streams read: the turns run at the same time.
    const responses = await Promise.all(
      chats.map((chat, i) => startTurn(f, chat.id, `write: ${names[i]}.txt text of ${names[i]}`)),
    );
    for (const res of responses) assert.equal(res.status, 200);
    const streams = await Promise.all(responses.map((res) => readEvents(res)));
    for (const events of streams)
      assert.deepEqual(
        toolResults(events).map((e) => e.data.ok),
        [true],
      );

    for (const [i, info] of infos.entries()) {
      assert.equal(read(info.path, `${names[i]}.txt`), `text of ${names[i]}`);
      for (const [j, other] of names.entries())
        if (j !== i)
          assert.ok(!fs.existsSync(path.join(info.path, `${other}.txt`)), `${other}.txt not in ${names[i]}'s worktree`);
      const now = await worktreeInfo(f, chats[i]!.id);
      assert.deepEqual(now.changedFiles, [{ path: `${names[i]}.txt`, added: 1, removed: 0 }]);
      assert.deepEqual([now.ahead, now.behind], [1, 0], "uncommitted work counts as one commit ahead");
    }
    assert.deepEqual(repoState(p.dir), before, "the project's tree, status and HEAD are untouched before a merge");

    // Merge: a merge commit on main whose second parent is the chat's branch.
    const merged = await merge(f, chats[0]!.id, "merge");
    assert.equal(merged.status, 200, await merged.clone().text());
    const mergeResult = await merged.json();
    assert.deepEqual([mergeResult.base, mergeResult.mode, mergeResult.files], ["main", "merge", ["alpha.txt"]]);
    const mergeCommit = git(p.dir, "rev-parse", "HEAD");
    assert.equal(mergeResult.commit, mergeCommit);
    assert.deepEqual(parentsOf(p.dir, mergeCommit), [before.head, git(p.dir, "rev-parse", infos[0]!.branch)]);
    assert.equal(git(p.dir, "log", "-1", "--format=%s"), "Merge parley/work-on-alpha: Work on alpha");
    assert.equal(read(p.dir, "alpha.txt"), "text of alpha");
    assert.equal(git(p.dir, "status", "--porcelain"), "");

    // Squash: one new commit on main with one parent, holding only beta.txt.
    const squashed = await merge(f, chats[1]!.id, "squash");
    assert.equal(squashed.status, 200, await squashed.clone().text());
    const squashCommit = git(p.dir, "rev-parse", "HEAD");
    assert.equal((await squashed.json()).commit, squashCommit);
    assert.deepEqual(parentsOf(p.dir, squashCommit), [mergeCommit]);
    assert.equal(git(p.dir, "show", "--name-only", "--format=", squashCommit), "beta.txt");
    assert.equal(git(p.dir, "log", "-1", "--format=%s"), "Work on beta");
    assert.equal(read(p.dir, "beta.txt"), "text of beta");

    const board = await (await f.s.api("GET", `/api/projects/${p.id}/worktree-chats`)).json();
    const entry = (chatId: string) => board.entries.find((e: { chat: { id: string } }) => e.chat.id === chatId);
    const squashedEntry: WorktreeInfo = entry(chats[1]!.id).worktree;
    assert.deepEqual(squashedEntry.changedFiles, [], "a squashed chat shows no changed files");
    assert.deepEqual([squashedEntry.ahead, squashedEntry.behind], [0, 0]);
    const pending: WorktreeInfo = entry(chats[2]!.id).worktree;
    assert.deepEqual(pending.changedFiles, [{ path: "gamma.txt", added: 1, removed: 0 }]);
    assert.equal(pending.behind, 3, "main moved: alpha's commit, its merge, and the squash");
    assert.ok(!fs.existsSync(path.join(p.dir, "gamma.txt")), "the third chat's work is not in the project");
    assert.equal(read(infos[2]!.path, "gamma.txt"), "text of gamma");
  });

  it("answers a conflicting merge with 409 conflict listing the file, and changes nothing", async () => {
    const p = await gitProject(f, root, "conflict");
    const chat = await worktreeChat(f, p, "Change two");
    await turn(f, chat.id, "edit: shared.txt two => chat-two");
    commitFile(p.dir, "shared.txt", "one\nproject-two\nthree\n");
    const info = await worktreeInfo(f, chat.id);
    const project = repoState(p.dir);
    const worktree = repoState(info.path);
    const tip = git(p.dir, "rev-parse", info.branch);
    for (const mode of ["merge", "squash"] as const) {
      const { status, body } = await refusal(await merge(f, chat.id, mode));
      assert.equal(status, 409, `${mode}: ${JSON.stringify(body)}`);
      assert.equal(body.error.code, "conflict");
      assert.deepEqual(issuePaths(body), ["shared.txt"]);
      assert.match(body.error.message, /conflict/);
      assert.deepEqual(repoState(p.dir), project, `${mode}: the project's HEAD, status and files are as they were`);
      assert.equal(git(p.dir, "rev-parse", info.branch), tip, `${mode}: the branch did not move`);
      assert.deepEqual(repoState(info.path), worktree, `${mode}: the worktree is as it was`);
      assert.ok(!fs.existsSync(path.join(p.dir, ".git", "MERGE_HEAD")), "no merge left under way");
    }
    assert.equal(read(info.path, "shared.txt"), "one\nchat-two\nthree\n");
    assert.equal(read(p.dir, "shared.txt"), "one\nproject-two\nthree\n");
  });

  it("refuses a merge that would write over uncommitted project changes, changing nothing; others do not block", async () => {
    const p = await gitProject(f, root, "dirty", { "shared.txt": "one\ntwo\nthree\n", "other.txt": "other\n" });
    const chat = await worktreeChat(f, p, "Edit shared");
    await turn(f, chat.id, "edit: shared.txt one => chat-one");
    fs.writeFileSync(path.join(p.dir, "shared.txt"), "one\ntwo\nthree\nlocal\n");
    const before = repoState(p.dir);
    const tip = git(p.dir, "rev-parse", "parley/edit-shared");
    const { status, body } = await refusal(await merge(f, chat.id, "merge"));
    assert.equal(status, 409, JSON.stringify(body));
    assert.equal(body.error.code, "conflict");
    assert.deepEqual(issuePaths(body), ["shared.txt"]);
    assert.match(body.error.message, /uncommitted/);
    assert.deepEqual(repoState(p.dir), before);
    assert.equal(git(p.dir, "rev-parse", "parley/edit-shared"), tip);
    assert.equal(read(p.dir, "shared.txt"), "one\ntwo\nthree\nlocal\n", "the user's edit is kept");

    // An untracked file where the merge would create one blocks too.
    const other = await worktreeChat(f, p, "Add new");
    await turn(f, other.id, "write: new.txt from the chat");
    fs.writeFileSync(path.join(p.dir, "new.txt"), "the user's own\n");
    const untracked = await refusal(await merge(f, other.id, "merge"));
    assert.equal(untracked.status, 409);
    assert.deepEqual(issuePaths(untracked.body), ["new.txt"]);
    assert.equal(read(p.dir, "new.txt"), "the user's own\n");
    fs.rmSync(path.join(p.dir, "new.txt"));

    // With the user's edit elsewhere (a file the merge does not touch), the merge lands and keeps it.
    fs.writeFileSync(path.join(p.dir, "shared.txt"), "one\ntwo\nthree\n");
    fs.writeFileSync(path.join(p.dir, "other.txt"), "other, edited by the user\n");
    const merged = await merge(f, chat.id, "merge");
    assert.equal(merged.status, 200, await merged.clone().text());
    assert.equal(read(p.dir, "shared.txt"), "chat-one\ntwo\nthree\n");
    assert.equal(read(p.dir, "other.txt"), "other, edited by the user\n");
    assert.equal(git(p.dir, "status", "--porcelain"), "M other.txt");
  });

  it("refuses a merge while the project has another branch checked out, and for a chat started on a detached HEAD", async () => {
    const p = await gitProject(f, root, "elsewhere");
    const chat = await worktreeChat(f, p, "On main");
    await turn(f, chat.id, "write: main.txt for main");
    git(p.dir, "checkout", "-q", "-b", "feature");
    const before = repoState(p.dir);
    const main = git(p.dir, "rev-parse", "main");
    const { status, body } = await refusal(await merge(f, chat.id, "merge"));
    assert.equal(status, 409, JSON.stringify(body));
    assert.match(body.error.message, /feature/);
    assert.deepEqual(repoState(p.dir), before);
    assert.equal(git(p.dir, "rev-parse", "main"), main, "main did not move");
    git(p.dir, "checkout", "-q", "main");
    assert.equal((await merge(f, chat.id, "merge")).status, 200, "back on main, it merges");

    git(p.dir, "checkout", "-q", "--detach");
    const detached = await worktreeChat(f, p, "Detached");
    const info = await worktreeInfo(f, detached.id);
    assert.equal(info.base, git(p.dir, "rev-parse", "HEAD"), "the base is the commit");
    await turn(f, detached.id, "write: detached.txt from nowhere");
    git(p.dir, "checkout", "-q", "main");
    const stateBefore = repoState(p.dir);
    const refused = await refusal(await merge(f, detached.id, "merge"));
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.error.message, /not from a branch/);
    assert.deepEqual(repoState(p.dir), stateBefore);
  });

  it("lets one of two merges into the same repository land at a time, never leaving half a merge", async () => {
    const p = await gitProject(f, root, "race");
    const a = await worktreeChat(f, p, "Race a");
    const b = await worktreeChat(f, p, "Race b");
    await turn(f, a.id, "write: a.txt from a");
    await turn(f, b.id, "write: b.txt from b");
    const start = git(p.dir, "rev-parse", "HEAD");
    const answers = await Promise.all([merge(f, a.id, "merge"), merge(f, b.id, "merge")]);
    const statuses = answers.map((res) => res.status);
    assert.ok(statuses.includes(200), `one merge lands: ${statuses}`);
    for (const [i, res] of answers.entries()) {
      if (res.status === 200) continue;
      const { status, body } = await refusal(res);
      assert.equal(status, 409);
      assert.match(body.error.message, /another merge/);
      assert.equal(git(p.dir, "status", "--porcelain"), "", "no half merge while refused");
      const again = await merge(f, [a, b][i]!.id, "merge");
      assert.equal(again.status, 200, `it lands when tried again: ${await again.clone().text()}`);
    }
    assert.equal(git(p.dir, "status", "--porcelain"), "");
    assert.ok(!fs.existsSync(path.join(p.dir, ".git", "MERGE_HEAD")));
    const subjects = git(p.dir, "log", "--format=%s", `${start}..main`).split("\n").sort();
    assert.deepEqual(subjects, ["Merge parley/race-a: Race a", "Merge parley/race-b: Race b", "Race a", "Race b"]);
    assert.equal(git(p.dir, "log", "--merges", "--format=%H", `${start}..main`).split("\n").length, 2);
    assert.deepEqual(Object.keys(treeDigest(p.dir)).sort(), [".gitignore", "a.txt", "b.txt", "shared.txt"]);
    assert.equal(read(p.dir, "a.txt"), "from a");
    assert.equal(read(p.dir, "b.txt"), "from b");
  });

  it("discards: 409 listing unmerged files, then with force no folder, no branch, state discarded and no more turns", async () => {
    const p = await gitProject(f, root, "discard");
    const chat = await worktreeChat(f, p, "Throw away");
    await turn(f, chat.id, "write: waste.txt not wanted");
    const info = await worktreeInfo(f, chat.id);
    const refused = await refusal(await discard(f, chat.id));
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(issuePaths(refused.body), ["waste.txt"]);
    assert.ok(fs.existsSync(path.join(info.path, "waste.txt")), "refused: the work is still there");
    assert.ok(branches(p.dir).includes(info.branch));

    const forced = await discard(f, chat.id, { force: true });
    assert.equal(forced.status, 204, await forced.clone().text());
    assert.ok(!fs.existsSync(info.path), "the folder is gone");
    assert.ok(!branches(p.dir).includes(info.branch), "the branch is gone");
    assert.equal(git(p.dir, "branch", "--list", info.branch), "");
    assert.ok(!git(p.dir, "worktree", "list").includes(info.path), "git forgot the worktree");
    assert.equal((await worktreeInfo(f, chat.id)).state, "discarded");
    const again = await refusal(await startTurn(f, chat.id, "write: back.txt again"));
    assert.equal(again.status, 409, JSON.stringify(again.body));
    assert.match(again.body.error.message, /discarded/);
    assert.ok(!fs.existsSync(path.join(p.dir, "back.txt")), "never in the project's tree");
    const board = await (await f.s.api("GET", `/api/projects/${p.id}/worktree-chats`)).json();
    assert.ok(!board.entries.some((e: { chat: { id: string } }) => e.chat.id === chat.id), "off the board");

    const done = await worktreeChat(f, p, "Keep this");
    await turn(f, done.id, "write: kept.txt wanted");
    const doneInfo = await worktreeInfo(f, done.id);
    assert.equal((await merge(f, done.id, "merge")).status, 200);
    const clean = await discard(f, done.id);
    assert.equal(clean.status, 204, `a merged chat discards without force: ${await clean.clone().text()}`);
    assert.ok(!fs.existsSync(doneInfo.path));
    assert.ok(!branches(p.dir).includes(doneInfo.branch));
    assert.equal(read(p.dir, "kept.txt"), "wanted");
  });

  it("lists a worktree chat's own files in the @ popup, the project's for any other chat, and the project's once it is discarded", async () => {
    const p = await gitProject(f, root, "popup");
    const chat = await worktreeChat(f, p, "Draft the spec");
    const other = await (await f.s.api("POST", `/api/projects/${p.id}/chats`, {})).json();
    await turn(f, chat.id, "write: only-in-worktree.md written by the agent");
    const found = async (chatId?: string) => {
      const query = new URLSearchParams({ projectDir: p.dir, q: "only-in-worktree", ...(chatId ? { chatId } : {}) });
      const res = await f.s.api("GET", `/api/mentions/search?${query}`);
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { category: string; label: string }[])
        .filter((row) => row.category === "files")
        .map((row) => row.label);
    };
    assert.deepEqual(await found(chat.id), ["only-in-worktree.md"], "the chat's worktree is what its popup lists");
    assert.deepEqual(await found(other.id), [], "another chat of the project lists the project's files");
    assert.deepEqual(await found(), []);
    const catalog = await (
      await f.s.api("GET", `/api/mentions/catalog?${new URLSearchParams({ projectDir: p.dir, chatId: chat.id })}`)
    ).json();
    assert.ok(catalog.files.some((file: { path: string }) => file.path === "only-in-worktree.md"));

    const info = await worktreeInfo(f, chat.id);
    const watched = async () => (await f.s.runtime.mentionEngine.stats()).projects.map((project) => project.dir);
    assert.ok(
      (await watched()).some((dir) => dir.startsWith(info.path)),
      "the worktree is indexed",
    );
    assert.equal((await discard(f, chat.id, { force: true })).status, 204);
    assert.deepEqual(await found(chat.id), [], "a discarded worktree's chat lists the project's files");
    assert.ok(!(await watched()).some((dir) => dir.startsWith(info.path)), "and its folder is no longer watched");
  });
});
