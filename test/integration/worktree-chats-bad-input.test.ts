// Worktree chats' bad input with real git (contract 7.6, issue 39): a worktree folder deleted by hand,
// a branch name that exists or that git refuses, a folder outside git, a repository without commits,
// a base that moved, a chat deleted with work in its worktree, a chat busy answering. Each gets a clear
// 4xx or a clear state, and nothing is lost.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { branches, commitFile, git, initRepo } from "../helpers/git-repo";
import { readEvents } from "../helpers/sse";
import { until } from "../helpers/poll";
import { makeTempDir, removeDir } from "../helpers/temp";
import {
  createChat,
  discard,
  gitProject,
  issuePaths,
  merge,
  refusal,
  startTurn,
  turn,
  worktreeChat,
  worktreeInfo,
  type Project,
} from "../helpers/worktree-chats";

const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), "utf8");

describe("worktree chats: bad input, answered clearly and losing nothing", function () {
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

  const worktreeFolders = () => fs.readdirSync(path.join(f.s.home, "worktrees")).sort();
  async function chatCount(project: Project): Promise<number> {
    const list = await (await f.s.api("GET", `/api/projects/${project.id}/chats`)).json();
    return (Array.isArray(list) ? list : list.chats).length;
  }
  async function boardEntry(project: Project, chatId: string) {
    const board = await (await f.s.api("GET", `/api/projects/${project.id}/worktree-chats`)).json();
    return board.entries.find((e: { chat: { id: string } }) => e.chat.id === chatId);
  }

  it("says 'missing' for a worktree folder deleted by hand, refuses turns there, and discards it", async () => {
    const p = await gitProject(f, root, "missing");
    const chat = await worktreeChat(f, p, "Vanish");
    await turn(f, chat.id, "write: lost.txt never committed");
    const info = await worktreeInfo(f, chat.id);
    fs.rmSync(info.path, { recursive: true, force: true });

    const missing = await worktreeInfo(f, chat.id);
    assert.equal(missing.state, "missing");
    assert.deepEqual([missing.changedFiles, missing.ahead], [[], 0], "its branch holds no commits of its own");
    assert.equal((await boardEntry(p, chat.id)).worktree.state, "missing");
    const refused = await refusal(await startTurn(f, chat.id, "write: stray.txt where?"));
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.error.message, /gone/);
    assert.ok(!fs.existsSync(path.join(p.dir, "stray.txt")), "never written in the project's tree");
    assert.ok(!fs.existsSync(info.path), "the folder is not made again");
    assert.equal((await merge(f, chat.id, "merge")).status, 409);

    // Nothing on its branch the base lacks: discard needs no force, and the branch goes.
    assert.equal((await discard(f, chat.id)).status, 204);
    assert.ok(!branches(p.dir).includes(info.branch));
    assert.equal((await worktreeInfo(f, chat.id)).state, "discarded");
    assert.equal(git(p.dir, "status", "--porcelain"), "");
  });

  it("keeps the commits of a vanished worktree's branch until a forced discard", async () => {
    const p = await gitProject(f, root, "missing-commits");
    const chat = await worktreeChat(f, p, "Committed then gone");
    await turn(f, chat.id, "write: saved.txt committed work");
    const info = await worktreeInfo(f, chat.id);
    git(info.path, "add", "-A");
    git(info.path, "commit", "-q", "-m", "saved");
    fs.rmSync(info.path, { recursive: true, force: true });

    const missing = await worktreeInfo(f, chat.id);
    assert.equal(missing.state, "missing");
    assert.deepEqual(missing.changedFiles, [{ path: "saved.txt", added: 1, removed: 0 }], "read from its branch");
    assert.equal(missing.ahead, 1);
    const refused = await refusal(await discard(f, chat.id));
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.deepEqual(issuePaths(refused.body), ["saved.txt"]);
    assert.equal(git(p.dir, "show", `${info.branch}:saved.txt`), "committed work", "the branch keeps it");

    assert.equal((await discard(f, chat.id, { force: true })).status, 204);
    assert.ok(!branches(p.dir).includes(info.branch), "forced: the branch goes");
    assert.ok(!git(p.dir, "worktree", "list", "--porcelain").includes(info.path), "git forgot the folder");
  });

  it("refuses a branch that exists (409) or that git does not accept (400), creating nothing", async () => {
    const p = await gitProject(f, root, "names");
    git(p.dir, "branch", "taken");
    const folders = worktreeFolders();
    const chats = await chatCount(p);
    const exists = await refusal(await createChat(f, p, { title: "x", worktree: { branch: "taken" } }));
    assert.equal(exists.status, 409, JSON.stringify(exists.body));
    assert.match(exists.body.error.message, /taken exists/);
    for (const name of ["a..b", "-x", "x.lock", "parley/x.lock", "a b", "a~1", "x/", "@{x}", ""]) {
      const bad = await refusal(await createChat(f, p, { title: "x", worktree: { branch: name } }));
      assert.equal(bad.status, 400, `${JSON.stringify(name)}: ${JSON.stringify(bad.body)}`);
      assert.equal(bad.body.error.code, "invalid_request");
    }
    assert.deepEqual(worktreeFolders(), folders, "no worktree folder was left");
    assert.equal(await chatCount(p), chats, "no chat was stored");
    assert.deepEqual(branches(p.dir).sort(), ["main", "taken"]);
  });

  it("takes a branch name the user gives, and makes default names unique", async () => {
    const p = await gitProject(f, root, "custom");
    const custom = await worktreeChat(f, p, "Anything", { branch: "parley/custom" });
    assert.equal(custom.worktreeBranch, "parley/custom");
    const info = await worktreeInfo(f, custom.id);
    assert.equal(info.branch, "parley/custom");
    assert.equal(git(info.path, "symbolic-ref", "--short", "HEAD"), "parley/custom");
    await turn(f, custom.id, "write: custom.txt on my branch");
    assert.equal((await merge(f, custom.id, "squash")).status, 200);
    assert.equal(read(p.dir, "custom.txt"), "on my branch");

    const same = [];
    for (let i = 0; i < 3; i++) same.push(await worktreeChat(f, p, "Same title"));
    assert.deepEqual(
      same.map((chat) => chat.worktreeBranch),
      ["parley/same-title", "parley/same-title-2", "parley/same-title-3"],
    );
  });

  it("creates chats with the same title at once, each on a branch of its own", async () => {
    const p = await gitProject(f, root, "same-time");
    const answers = await Promise.all([1, 2, 3].map(() => createChat(f, p, { title: "At once", worktree: true })));
    const bodies = await Promise.all(answers.map((res) => res.json()));
    assert.deepEqual(
      answers.map((res) => res.status),
      [201, 201, 201],
      JSON.stringify(bodies),
    );
    const names = bodies.map((chat: { worktreeBranch: string }) => chat.worktreeBranch).sort();
    assert.deepEqual(names, ["parley/at-once", "parley/at-once-2", "parley/at-once-3"]);
  });

  it("says so for a folder that is not a git repository, and for a repository without commits (409)", async () => {
    const plain = path.join(root, "plain");
    fs.mkdirSync(plain);
    const plainProject = { dir: plain, id: (await (await f.s.api("POST", "/api/projects", { dir: plain })).json()).id };
    const notGit = await refusal(await createChat(f, plainProject, { worktree: true }));
    assert.equal(notGit.status, 409, JSON.stringify(notGit.body));
    assert.match(notGit.body.error.message, /not a git repository/);

    const empty = path.join(root, "empty");
    fs.mkdirSync(empty);
    git(empty, "init", "-q", "-b", "main");
    const emptyProject = { dir: empty, id: (await (await f.s.api("POST", "/api/projects", { dir: empty })).json()).id };
    const noCommits = await refusal(await createChat(f, emptyProject, { worktree: true }));
    assert.equal(noCommits.status, 409, JSON.stringify(noCommits.body));
    assert.match(noCommits.body.error.message, /no commits/);
    assert.equal(await chatCount(plainProject), 0);
    assert.equal(await chatCount(emptyProject), 0);
    assert.equal(branches(empty).length, 0);
  });

  it("shows how far the base moved, and still merges", async () => {
    const p = await gitProject(f, root, "moved", { "shared.txt": "one\n", "log.txt": "start\n" });
    const chat = await worktreeChat(f, p, "Behind");
    await turn(f, chat.id, "write: mine.txt the chat's");
    commitFile(p.dir, "log.txt", "start\nnext\n");
    commitFile(p.dir, "shared.txt", "one\ntwo\n");
    const info = await worktreeInfo(f, chat.id);
    assert.deepEqual([info.ahead, info.behind], [1, 2]);
    assert.deepEqual(info.changedFiles, [{ path: "mine.txt", added: 1, removed: 0 }], "only the chat's own changes");
    assert.equal((await merge(f, chat.id, "merge")).status, 200);
    assert.deepEqual([read(p.dir, "mine.txt"), read(p.dir, "shared.txt")], ["the chat's", "one\ntwo\n"]);
  });

  it("starts from HEAD when the project has uncommitted changes, and says so", async () => {
    const p = await gitProject(f, root, "started-dirty");
    fs.writeFileSync(path.join(p.dir, "shared.txt"), "edited, not committed\n");
    const chat = await worktreeChat(f, p, "Dirty start");
    const info = await worktreeInfo(f, chat.id);
    assert.equal(info.startedDirty, true);
    assert.equal(read(info.path, "shared.txt"), "one\ntwo\nthree\n", "the worktree has the committed file");
    assert.equal(read(p.dir, "shared.txt"), "edited, not committed\n", "the project keeps its edit");
  });

  it("runs a project in a sub-folder of its repository in the same sub-folder of the worktree, made if git does not track it", async () => {
    const repo = path.join(root, "mono");
    initRepo(repo, { "pkg/app/index.txt": "app\n", "top.txt": "top\n" });
    const dir = path.join(repo, "pkg", "app");
    const p = { dir, id: (await (await f.s.api("POST", "/api/projects", { dir })).json()).id };
    const chat = await worktreeChat(f, p, "In a package");
    await turn(f, chat.id, "write: added.txt in the package");
    const info = await worktreeInfo(f, chat.id);
    assert.equal(read(info.path, "pkg/app/added.txt"), "in the package");
    assert.deepEqual(info.changedFiles, [{ path: "pkg/app/added.txt", added: 1, removed: 0 }]);
    assert.equal((await merge(f, chat.id, "merge")).status, 200);
    assert.equal(read(dir, "added.txt"), "in the package");

    // A project folder git does not track (new and empty) is made in the worktree, not a failed turn.
    const fresh = path.join(repo, "fresh");
    fs.mkdirSync(fresh);
    const q = { dir: fresh, id: (await (await f.s.api("POST", "/api/projects", { dir: fresh })).json()).id };
    const untracked = await worktreeChat(f, q, "In a new folder");
    await turn(f, untracked.id, "write: first.txt in the new folder");
    const freshInfo = await worktreeInfo(f, untracked.id);
    assert.equal(read(freshInfo.path, "fresh/first.txt"), "in the new folder");
    assert.deepEqual(freshInfo.changedFiles, [{ path: "fresh/first.txt", added: 1, removed: 0 }]);
    assert.deepEqual(fs.readdirSync(fresh), [], "the project's own folder is untouched");
  });

  it("refuses to merge or discard while the chat waits for an answer, and shows the question on the board", async () => {
    const p = await gitProject(f, root, "busy");
    const chat = await worktreeChat(f, p, "Asking");
    await turn(f, chat.id, "write: asked.txt before asking");
    const res = await startTurn(f, chat.id, "ask: Ship it?");
    assert.equal(res.status, 200);
    const events = readEvents(res);
    const entry = await until(
      () => boardEntry(p, chat.id),
      (e) => e.status === "waiting",
      "the board shows the chat waiting",
    );
    assert.deepEqual(
      entry.waiting.map((w: { kind: string; question: string }) => [w.kind, w.question]),
      [["question", "Ship it?"]],
    );
    const mergeRefused = await refusal(await merge(f, chat.id, "merge"));
    assert.equal(mergeRefused.status, 409);
    assert.match(mergeRefused.body.error.message, /answering/);
    const discardRefused = await refusal(await discard(f, chat.id, { force: true }));
    assert.equal(discardRefused.status, 409);
    assert.ok(fs.existsSync(path.join(entry.worktree.path, "asked.txt")));
    const callId = entry.waiting[0].callId;
    const answered = await f.s.api("POST", `/api/chats/${chat.id}/answers/${callId}`, { answer: "yes" });
    assert.ok(answered.ok, await answered.clone().text());
    await events;
    assert.equal((await merge(f, chat.id, "merge")).status, 200, "done answering, it merges");
  });

  it("on deleting a chat keeps its uncommitted work as a commit on its branch, and leaves no branch when nothing was unmerged", async () => {
    const p = await gitProject(f, root, "deleted");
    const chat = await worktreeChat(f, p, "Deleted with work");
    await turn(f, chat.id, "write: unsaved.txt keep me");
    const info = await worktreeInfo(f, chat.id);
    assert.equal((await f.s.api("DELETE", `/api/chats/${chat.id}`)).status, 204);
    assert.ok(!fs.existsSync(info.path), "the folder is gone");
    assert.ok(branches(p.dir).includes(info.branch), "the branch stays");
    assert.equal(git(p.dir, "show", `${info.branch}:unsaved.txt`), "keep me");
    assert.match(git(p.dir, "log", "-1", "--format=%s", info.branch), /kept when the chat was deleted/);
    assert.equal(git(p.dir, "status", "--porcelain"), "", "the project's tree is untouched");

    const idle = await worktreeChat(f, p, "Deleted idle");
    const idleInfo = await worktreeInfo(f, idle.id);
    const merged = await worktreeChat(f, p, "Deleted merged");
    await turn(f, merged.id, "write: merged.txt merged first");
    const mergedInfo = await worktreeInfo(f, merged.id);
    assert.equal((await merge(f, merged.id, "merge")).status, 200);
    for (const id of [idle.id, merged.id]) assert.equal((await f.s.api("DELETE", `/api/chats/${id}`)).status, 204);
    for (const gone of [idleInfo, mergedInfo]) {
      assert.ok(!fs.existsSync(gone.path));
      assert.ok(!branches(p.dir).includes(gone.branch), `${gone.branch} goes: nothing unmerged`);
    }
    assert.deepEqual(
      git(p.dir, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length,
      1,
      "only the project",
    );
  });
});
