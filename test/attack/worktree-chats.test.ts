// Worktree chats (contract 7.6) against a hostile client and a hostile repository, on a real server with
// real git: paths that try to read outside the repository, branch names that look like options, bodies
// of the wrong shape, a repository whose hooks, hooksPath and fsmonitor want to run, an agent whose
// sandboxed commands try to plant a hook, a config or a git folder of their own making for Parley's
// unsandboxed git, worktree files made hostile before a merge, an ignored file of the user a merge
// would overwrite, and a board of thirty chats. Each refusal is a 4xx in the contract's error shape
// and changes nothing; nothing runs that the repository or the agent planted.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { branches, commitFile, git, repoState, treeDigest } from "../helpers/git-repo";
import { readEvents } from "../helpers/sse";
import { removeDir } from "../helpers/temp";
import {
  createChat,
  discard,
  gitProject,
  merge,
  refusal,
  startTurn,
  toolResults,
  turn,
  worktreeChat,
  worktreeInfo,
  type ApiError,
  type Project,
} from "../helpers/worktree-chats";
import { openDatabase } from "../../src/platform/db";
import { Sandbox } from "../../src/tools/sandbox/sandbox";

/** Outside /tmp, which the sandbox replaces: a marker there can only be written from outside the sandbox. */
function makeRoot(): string {
  for (const base of ["/var/tmp", os.tmpdir()]) {
    try {
      return fs.realpathSync(fs.mkdtempSync(path.join(base, "parley-worktree-attack-")));
    } catch {
      // next
    }
  }
  throw new Error("no folder for the test");
}

/** A script that leaves `<markers>/<name>` behind when anything runs it (then passes its input on). */
function markerScript(file: string, markers: string, name: string): void {
  fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(markers, name)}'\ncat 2>/dev/null\nexit 0\n`, { mode: 0o755 });
}

/** The test's own look at a repository, running none of its hooks or its fsmonitor. */
const quietGit = (dir: string, ...args: string[]) =>
  git(dir, "-c", "core.hooksPath=/dev/null", "-c", "core.fsmonitor=false", ...args);

/**
 * What a chat's commands can leave in its worktree: a git folder of their own making (objects borrowed
 * from the repository), whose config has a filter that leaves `marker`, named by the worktree's `.git`.
 */
function plantGitFolder(worktree: string, marker: string): void {
  const common = git(worktree, "rev-parse", "--path-format=absolute", "--git-common-dir");
  git(worktree, "clone", "-q", "--bare", "--shared", common, "evil.git");
  git(worktree, "--git-dir=evil.git", "config", "core.bare", "false");
  const filter = `[filter "x"]\n\tclean = touch ${marker}; cat\n\tsmudge = touch ${marker}; cat\n`;
  fs.appendFileSync(path.join(worktree, "evil.git", "config"), filter);
  fs.writeFileSync(path.join(worktree, ".gitattributes"), "* filter=x\n");
  fs.writeFileSync(path.join(worktree, ".git"), `gitdir: ${path.join(worktree, "evil.git")}\n`);
}

const HOOKS = [
  "post-checkout",
  "post-merge",
  "pre-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-merge-commit",
  "reference-transaction",
  "post-rewrite",
  "pre-auto-gc",
  "post-index-change",
];

describe("attack: worktree chats against a hostile client and a hostile repository", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let root: string;
  let markers: string;
  let sandboxed = false;

  before(async () => {
    const availability = await new Sandbox({ appHome: "/nonexistent-parley-home" }).availability();
    sandboxed = availability.available && availability.kind === "bwrap";
    root = makeRoot();
    markers = path.join(root, "markers");
    fs.mkdirSync(markers);
    f = await startChatFixture();
    const res = await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow", shell: "allow" } });
    assert.ok(res.ok, await res.text());
  });
  after(async () => {
    await f.stop();
    removeDir(root);
  });
  afterEach(() => assert.deepEqual(fs.readdirSync(markers), [], "nothing planted ran"));

  const worktreeFolders = () => {
    const folder = path.join(f.s.home, "worktrees");
    return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
  };
  const get = (route: string) => f.s.api("GET", route);
  async function chatIds(project: Project): Promise<string[]> {
    const list = await (await get(`/api/projects/${project.id}/chats`)).json();
    return (Array.isArray(list) ? list : list.chats).map((chat: { id: string }) => chat.id).sort();
  }
  /** A refusal: the status, and the contract's error shape with a message. */
  async function refused(res: Response, status: number, what: string): Promise<ApiError> {
    const body = (await res.json()) as ApiError;
    assert.equal(res.status, status, `${what}: ${JSON.stringify(body)}`);
    assert.equal(typeof body.error?.code, "string", `${what}: an error code`);
    assert.ok(body.error.message.length > 0, `${what}: a message`);
    return body;
  }
  /** A `shell:` turn's command in the sandbox: its exit code and what it printed. */
  async function shell(chatId: string, cmd: string): Promise<{ exitCode: number; output: string }> {
    const res = await startTurn(f, chatId, `shell: ${cmd}`);
    assert.equal(res.status, 200, await res.clone().text());
    const [result] = toolResults(await readEvents(res));
    assert.ok(result, `the command ran: ${cmd}`);
    const { exitCode, output } = result.data.output as { exitCode: number; output: string };
    return { exitCode, output };
  }

  it("answers GET …/worktree/file with a 4xx for any path the chat did not change, and a symlink as its target text", async () => {
    const p = await gitProject(f, root, "file-paths", {
      "shared.txt": "one\n",
      "sub/inner.txt": "inner\n",
      "link.txt": "a plain file\n",
    });
    const secret = path.join(root, "outside-secret.txt");
    fs.writeFileSync(secret, "TOP-SECRET-VALUE\n");
    const chat = await worktreeChat(f, p, "Paths");
    await turn(f, chat.id, "write: made.txt by the chat");
    const info = await worktreeInfo(f, chat.id);
    // What the chat's shell can do in its worktree: a tracked file becomes a link out, a new link, a nested repository.
    fs.rmSync(path.join(info.path, "link.txt"));
    fs.symlinkSync("/etc/passwd", path.join(info.path, "link.txt"));
    fs.symlinkSync(secret, path.join(info.path, "new-link.txt"));
    const nested = path.join(info.path, "vendor", "lib");
    fs.mkdirSync(nested, { recursive: true });
    git(nested, "init", "-q", "-b", "main");
    commitFile(nested, "lib.txt", "library\n");
    const projectBefore = repoState(p.dir);
    const worktreeBefore = [git(info.path, "rev-parse", "HEAD"), git(info.path, "status", "--porcelain")];

    const file = (query: string) => get(`/api/chats/${chat.id}/worktree/file?${query}`);
    const q = (value: string) => `path=${encodeURIComponent(value)}`;
    for (const bad of [
      "../shared.txt",
      "../../../../etc/passwd",
      "/etc/passwd",
      secret,
      "shared.txt\0",
      "made.txt\0../../etc/passwd",
      "shared.txt",
      "sub",
      "sub/",
      "./made.txt",
      "made.txt/",
      "x".repeat(4000),
      ".git/config",
      ".git",
    ])
      await refused(await file(q(bad)), 404, JSON.stringify(bad.slice(0, 60)));
    await refused(await file(q("x".repeat(5000))), 400, "a path over 4096 characters");
    await refused(await file(""), 400, "no path");
    await refused(await file(`${q("made.txt")}&path=other`), 400, "two paths");
    await refused(await file(`${q("made.txt")}&extra=1`), 400, "an unknown parameter");

    const made = await (await file(q("made.txt"))).json();
    assert.deepEqual(made, { path: "made.txt", before: null, after: "by the chat", binary: false });
    // git stores a link as its target's name: the diff shows that text, never the file it names.
    const link = await file(q("link.txt"));
    const linkText = await link.text();
    assert.equal(link.status, 200, linkText);
    assert.deepEqual(JSON.parse(linkText), {
      path: "link.txt",
      before: "a plain file\n",
      after: "/etc/passwd",
      binary: false,
    });
    const newLink = await file(q("new-link.txt"));
    const newLinkText = await newLink.text();
    assert.equal(newLink.status, 200, newLinkText);
    assert.equal(JSON.parse(newLinkText).after, secret);
    for (const text of [linkText, newLinkText]) {
      assert.doesNotMatch(text, /root:/, "nothing of /etc/passwd");
      assert.doesNotMatch(text, /TOP-SECRET/, "nothing of the file outside");
    }
    // A nested repository is a submodule's commit to git: no file on either side, nothing of its files.
    const sub = await file(q("vendor/lib"));
    const subText = await sub.text();
    assert.equal(sub.status, 200, subText);
    assert.deepEqual(JSON.parse(subText), { path: "vendor/lib", before: null, after: null, binary: true });

    assert.deepEqual(repoState(p.dir), projectBefore, "the project did not change");
    assert.deepEqual(
      [git(info.path, "rev-parse", "HEAD"), git(info.path, "status", "--porcelain")],
      worktreeBefore,
      "the worktree's branch and index did not change",
    );
  });

  it("refuses worktree branch names git refuses or that look like options, and worktree values of the wrong shape, creating nothing", async () => {
    const p = await gitProject(f, root, "branch-names");
    git(p.dir, "branch", "parley/taken");
    const folders = worktreeFolders();
    const chats = await chatIds(p);
    const branchesBefore = branches(p.dir).sort();
    const cases: [unknown, number][] = [
      [{ branch: "-b" }, 400],
      [{ branch: "--force" }, 400],
      [{ branch: "-" }, 400],
      [{ branch: "HEAD" }, 400],
      [{ branch: "@" }, 400],
      [{ branch: "a b" }, 400],
      [{ branch: "a\nb" }, 400],
      [{ branch: "ünïcødé" }, 400],
      [{ branch: "brånch" }, 400],
      [{ branch: "x".repeat(101) }, 400],
      [{ branch: "a..b" }, 400],
      [{ branch: "x.lock" }, 400],
      [{ branch: "x/" }, 400],
      [{ branch: "a//b" }, 400],
      [{ branch: "$(touch pwned)" }, 400],
      [{ branch: "" }, 400],
      [{ branch: 5 }, 400],
      [{ branch: null }, 400],
      [{ branch: ["x"] }, 400],
      [{ branch: "main" }, 409],
      [{ branch: "parley/taken" }, 409],
      // A branch `parley` cannot sit beside `parley/taken` (git keeps refs as files): git says so.
      [{ branch: "parley" }, 409],
      ["yes", 400],
      [1, 400],
      [null, 400],
      [[], 400],
      [{ extra: 1 }, 400],
      [{ branch: "ok-name", extra: 1 }, 400],
    ];
    for (const [worktree, status] of cases)
      await refused(await createChat(f, p, { title: "x", worktree }), status, JSON.stringify(worktree));
    await refused(
      await createChat(f, p, { title: "x".repeat(201), worktree: true }),
      400,
      "a title over 200 characters",
    );
    assert.deepEqual(worktreeFolders(), folders, "no worktree folder was left");
    assert.deepEqual(await chatIds(p), chats, "no chat was stored");
    assert.deepEqual(branches(p.dir).sort(), branchesBefore, "no branch was made");
    assert.equal(git(p.dir, "worktree", "list", "--porcelain").match(/^worktree /gm)?.length, 1);

    // A long name git accepts is taken as it is; the folder's name stays short.
    const long = await worktreeChat(f, p, "Long", { branch: `feature/${"a".repeat(92)}` });
    assert.equal(long.worktreeBranch, `feature/${"a".repeat(92)}`);
    const longInfo = await worktreeInfo(f, long.id);
    assert.ok(path.basename(longInfo.path).length <= 50, longInfo.path);
    assert.equal(path.dirname(longInfo.path), fs.realpathSync(path.join(f.s.home, "worktrees")));
    // A name like a full ref is a branch of that name to git (refs/heads/refs/heads/x), not `x`; it goes whole.
    const refLike = await worktreeChat(f, p, "Ref-like", { branch: "refs/heads/x" });
    assert.equal(git(p.dir, "rev-parse", "--symbolic-full-name", "refs/heads/refs/heads/x"), "refs/heads/refs/heads/x");
    assert.ok(!branches(p.dir).includes("x"));
    assert.equal((await discard(f, refLike.id)).status, 204);
    assert.equal(git(p.dir, "for-each-ref", "refs/heads/refs/"), "", "its branch went");

    // A repository with a branch `parley`: no `parley/…` can be made beside it, and git's reason is told.
    const clash = await gitProject(f, root, "prefix-clash");
    git(clash.dir, "branch", "parley");
    const clashFolders = worktreeFolders();
    const body = await refused(await createChat(f, clash, { title: "x", worktree: true }), 409, "beside `parley`");
    assert.match(body.error.message, /refs\/heads\/parley' exists/);
    assert.deepEqual(worktreeFolders(), clashFolders);
    assert.deepEqual(await chatIds(clash), []);
  });

  it("makes a safe branch and folder from a title of emoji, quotes and shell metacharacters", async () => {
    const p = await gitProject(f, root, "titles");
    const pieces = ["$(touch pwned)", "`touch pwned2`", "; rm -rf ~ ", "'\"", "| & > < * ? ", "../../", "😈🔥", "\\"];
    let title = "";
    while (title.length < 190) title += pieces[title.length % pieces.length];
    title = title.slice(0, 200);
    const chat = await worktreeChat(f, p, title);
    assert.match(chat.worktreeBranch!, /^parley\/[a-z0-9]+(-[a-z0-9]+)*$/);
    assert.ok(chat.worktreeBranch!.length <= "parley/".length + 40);
    const emoji = await worktreeChat(f, p, "😈🔥".repeat(50));
    assert.equal(emoji.worktreeBranch, "parley/chat");
    const dots = await worktreeChat(f, p, "..");
    assert.equal(dots.worktreeBranch, "parley/chat-2");
    const home = fs.realpathSync(path.join(f.s.home, "worktrees"));
    for (const id of [chat.id, emoji.id, dots.id]) {
      const info = await worktreeInfo(f, id);
      assert.equal(path.dirname(info.path), home, `${info.path} is in Parley's worktrees folder`);
      assert.match(path.basename(info.path), /^[a-z0-9-]+-[0-9a-f]{8}$/);
    }
    for (const dir of [p.dir, process.cwd(), root, f.s.home])
      for (const name of ["pwned", "pwned2"]) assert.ok(!fs.existsSync(path.join(dir, name)), `no ${name} in ${dir}`);
    assert.equal(git(p.dir, "status", "--porcelain"), "");
  });

  it("answers merge, discard and file with 400 for a bad body, 404 for a chat without a worktree or unknown, 409 once discarded", async () => {
    const p = await gitProject(f, root, "bodies");
    const chat = await worktreeChat(f, p, "Bodies");
    await turn(f, chat.id, "write: work.txt the chat's work");
    const info = await worktreeInfo(f, chat.id);
    const before = repoState(p.dir);
    const mergeWith = (id: string, body: unknown) => f.s.api("POST", `/api/chats/${id}/worktree/merge`, body);
    for (const body of [
      { mode: "rebase" },
      { mode: 1 },
      { mode: null },
      { mode: "MERGE" },
      { mode: "merge", extra: 1 },
      { mode: "squash", force: true },
      [],
      "merge",
      "{not json",
    ])
      await refused(await mergeWith(chat.id, body), 400, `merge ${JSON.stringify(body)}`);
    for (const body of [{ force: "yes" }, { force: 1 }, { force: true, extra: 1 }, []])
      await refused(await discard(f, chat.id, body as { force?: boolean }), 400, `discard ${JSON.stringify(body)}`);
    assert.deepEqual(repoState(p.dir), before, "the project did not change");
    assert.ok(fs.existsSync(path.join(info.path, "work.txt")), "the worktree keeps its work");

    const plain = await (await createChat(f, p, { title: "plain" })).json();
    for (const id of [plain.id, "no-such-chat", "..%2F..%2Fetc"]) {
      await refused(await mergeWith(id, { mode: "merge" }), 404, `merge ${id}`);
      await refused(await discard(f, id, { force: true }), 404, `discard ${id}`);
      await refused(await get(`/api/chats/${id}/worktree/file?path=work.txt`), 404, `file ${id}`);
      await refused(await get(`/api/chats/${id}/worktree`), 404, `worktree ${id}`);
    }
    assert.deepEqual(repoState(p.dir), before, "the project did not change");

    assert.equal((await discard(f, chat.id, { force: true })).status, 204);
    const afterDiscard = repoState(p.dir);
    const branchesAfter = branches(p.dir).sort();
    assert.equal((await discard(f, chat.id, { force: true })).status, 204, "discarding twice is no error");
    await refused(await mergeWith(chat.id, { mode: "merge" }), 409, "merge after discard");
    await refused(await get(`/api/chats/${chat.id}/worktree/file?path=work.txt`), 409, "file after discard");
    assert.equal((await worktreeInfo(f, chat.id)).state, "discarded");
    assert.deepEqual(repoState(p.dir), afterDiscard);
    assert.deepEqual(branches(p.dir).sort(), branchesAfter);
    assert.ok(!fs.existsSync(info.path));
  });

  it("leaves no half merge when the chat is deleted while its merge runs", async () => {
    const p = await gitProject(f, root, "delete-during-merge");
    for (const mode of ["merge", "squash", "merge"] as const) {
      const chat = await worktreeChat(f, p, `Racing ${mode}`);
      await turn(f, chat.id, `write: ${mode}-${chat.id}.txt raced`);
      const info = await worktreeInfo(f, chat.id);
      // Enough files that the merge's own git calls take a while.
      for (let i = 0; i < 150; i++) fs.writeFileSync(path.join(info.path, `bulk-${i}.txt`), `${i}\n`.repeat(50));
      const merging = merge(f, chat.id, mode);
      const deleting = f.s.api("DELETE", `/api/chats/${chat.id}`);
      const [merged, deleted] = await Promise.all([merging, deleting]);
      const mergedText = await merged.text();
      assert.ok([200, 404, 409].includes(merged.status), `${mode}: ${merged.status} ${mergedText}`);
      if (merged.status !== 200) assert.ok(JSON.parse(mergedText).error.message);
      assert.equal(deleted.status, 204, await deleted.text());
      const gitDir = path.join(p.dir, ".git");
      for (const leftover of ["MERGE_HEAD", "SQUASH_MSG", "index.lock"])
        assert.ok(!fs.existsSync(path.join(gitDir, leftover)), `${mode}: no ${leftover} left`);
      assert.equal(git(p.dir, "status", "--porcelain"), "", `${mode}: the project's tree is clean`);
      assert.ok(!fs.existsSync(info.path), `${mode}: the folder is gone`);
    }
  });

  it("never runs a hostile repository's hooks, hooksPath scripts or fsmonitor, nor a filter its .gitattributes names, on create, turn, board, diff, merge, squash, discard or delete", async () => {
    const hooksDir = path.join(root, "evil-hooks");
    fs.mkdirSync(hooksDir);
    for (const hook of HOOKS) markerScript(path.join(hooksDir, hook), markers, `hooksPath-${hook}`);
    const fsmonitor = path.join(root, "evil-fsmonitor");
    markerScript(fsmonitor, markers, "fsmonitor");
    const files = { "shared.txt": "one\ntwo\nthree\n", ".gitattributes": "* filter=evil diff=evil merge=evil\n" };
    const own = await gitProject(f, root, "own-hooks", files);
    for (const hook of HOOKS) markerScript(path.join(own.dir, ".git", "hooks", hook), markers, `hook-${hook}`);
    const configured = await gitProject(f, root, "configured", files);
    git(configured.dir, "config", "core.hooksPath", hooksDir);
    git(configured.dir, "config", "core.fsmonitor", fsmonitor);
    // The canaries are live: the user's own git runs them.
    git(own.dir, "checkout", "-q", "-b", "canary");
    git(own.dir, "checkout", "-q", "main");
    git(own.dir, "branch", "-q", "-D", "canary");
    git(configured.dir, "status", "--porcelain");
    git(configured.dir, "checkout", "-q", "-b", "canary");
    git(configured.dir, "checkout", "-q", "main");
    git(configured.dir, "branch", "-q", "-D", "canary");
    const ran = fs.readdirSync(markers);
    for (const name of ["hook-post-checkout", "hooksPath-post-checkout", "fsmonitor"])
      assert.ok(ran.includes(name), `the canary ${name} runs for plain git: ${ran.join(", ")}`);
    for (const name of ran) fs.rmSync(path.join(markers, name));

    for (const p of [own, configured]) {
      const merged = await worktreeChat(f, p, "Merged");
      await turn(f, merged.id, "write: merged.txt merged work");
      await turn(f, merged.id, "edit: shared.txt two => TWO");
      fs.writeFileSync(path.join(p.dir, "other.txt"), "the base moved\n");
      quietGit(p.dir, "add", "other.txt");
      quietGit(p.dir, "commit", "-q", "-m", "the base moved");
      assert.equal((await get(`/api/projects/${p.id}/worktree-chats`)).status, 200);
      assert.equal((await get(`/api/chats/${merged.id}/worktree/file?path=shared.txt`)).status, 200);
      const res = await merge(f, merged.id, "merge");
      assert.equal(res.status, 200, await res.text());
      assert.equal(fs.readFileSync(path.join(p.dir, "shared.txt"), "utf8"), "one\nTWO\nthree\n");

      const squashed = await worktreeChat(f, p, "Squashed");
      await turn(f, squashed.id, "write: squashed.txt squashed work");
      assert.equal((await merge(f, squashed.id, "squash")).status, 200);

      const discarded = await worktreeChat(f, p, "Discarded");
      await turn(f, discarded.id, "write: discarded.txt thrown away");
      assert.equal((await discard(f, discarded.id, { force: true })).status, 204);

      const deleted = await worktreeChat(f, p, "Deleted");
      await turn(f, deleted.id, "write: kept.txt kept on its branch");
      assert.equal((await f.s.api("DELETE", `/api/chats/${deleted.id}`)).status, 204);
      assert.equal(quietGit(p.dir, "show", "parley/deleted:kept.txt"), "kept on its branch");
      assert.equal(quietGit(p.dir, "status", "--porcelain"), "");
      assert.deepEqual(fs.readdirSync(markers), [], `nothing ran in ${path.basename(p.dir)}`);
    }
  });

  it("keeps the repository's hooks and config read-only to the chat's sandboxed commands, and runs nothing on the merge after", async function () {
    if (!sandboxed) return this.skip();
    const p = await gitProject(f, root, "agent-hooks");
    const chat = await worktreeChat(f, p, "Hook planter");
    await turn(f, chat.id, "write: work.txt to merge");
    const script = `#!/bin/sh\ntouch ${path.join(markers, "planted")}\n`;
    const hook = path.join(p.dir, ".git", "hooks", "post-merge");
    const planted = await shell(chat.id, `printf '${script.replaceAll("\n", "\\n")}' > ${hook} && chmod +x ${hook}`);
    assert.notEqual(planted.exitCode, 0, planted.output);
    assert.ok(!fs.existsSync(hook), "no hook was planted");
    const hooksDir = path.join(p.dir, "..", "agent-hooks-dir");
    for (const cmd of [
      `git config core.hooksPath ${hooksDir}`,
      `git config core.fsmonitor ${hooksDir}/fsmonitor`,
      `git config --worktree core.hooksPath ${hooksDir}`,
      `touch ${path.join(markers, "written-from-the-sandbox")}`,
    ]) {
      const result = await shell(chat.id, cmd);
      assert.notEqual(result.exitCode, 0, `${cmd}: ${result.output}`);
    }
    assert.ok(!git(p.dir, "config", "--list").includes("hooksPath"), "the config was not changed");
    const res = await merge(f, chat.id, "merge");
    assert.equal(res.status, 200, await res.text());
  });

  it("does not let the chat's commands point the worktree's .git, or its commondir, at a git folder whose filter Parley's git would run", async function () {
    if (!sandboxed) return this.skip();
    const p = await gitProject(f, root, "agent-gitdir");
    const escaped = path.join(markers, "escaped");
    const filter = `[filter "x"]\\n\\tclean = touch ${escaped}; cat\\n\\tsmudge = touch ${escaped}; cat\\n\\tprocess = touch ${escaped}\\n`;
    const plant = [
      `git clone -q --bare --shared "$(git rev-parse --git-common-dir)" evil.git`,
      `git --git-dir=evil.git config core.bare false`,
      `printf '${filter}' >> evil.git/config`,
      `echo '* filter=x' > .gitattributes`,
    ].join(" && ");

    const viaGitFile = await worktreeChat(f, p, "Git file");
    let result = await shell(viaGitFile.id, `${plant} && echo "gitdir: $PWD/evil.git" > .git && cat .git`);
    assert.equal(result.exitCode, 0, result.output);
    result = await shell(viaGitFile.id, `touch ${escaped}`);
    assert.notEqual(result.exitCode, 0, "the sandbox cannot write the marker itself");

    const viaCommonDir = await worktreeChat(f, p, "Common dir");
    result = await shell(viaCommonDir.id, `${plant} && echo "$PWD/evil.git" > "$(git rev-parse --git-dir)/commondir"`);
    assert.equal(result.exitCode, 0, result.output);

    for (const chat of [viaGitFile, viaCommonDir]) {
      const info = await get(`/api/chats/${chat.id}/worktree`);
      assert.ok(info.status < 500, `${info.status} ${await info.text()}`);
      assert.ok(!fs.existsSync(escaped), "GET worktree ran no filter of the chat's making");
      assert.ok((await get(`/api/projects/${p.id}/worktree-chats`)).status < 500);
      assert.ok((await get(`/api/chats/${chat.id}/worktree/file?path=.gitattributes`)).status < 500);
      const merged = await merge(f, chat.id, "squash");
      assert.ok(merged.status < 500, `${merged.status} ${await merged.text()}`);
      assert.ok(!fs.existsSync(escaped), "a merge ran no filter of the chat's making");
    }
    for (const chat of [viaGitFile, viaCommonDir])
      assert.equal((await f.s.api("DELETE", `/api/chats/${chat.id}`)).status, 204);
    assert.ok(!fs.existsSync(escaped), "deleting the chats ran no filter of their making");
  });

  it("at start, releases a deleted chat's leftover worktree through its repository's git folder, never the `.git` file the chat left", async () => {
    const home = path.join(root, "restart-home");
    const escaped = path.join(markers, "escaped-at-start");
    let g = await startChatFixture({ home });
    try {
      assert.ok((await g.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } })).ok);
      const p = await gitProject(g, root, "orphans");
      const kept = await worktreeInfo(g, (await worktreeChat(g, p, "Kept")).id);
      const gone = await worktreeChat(g, p, "Gone");
      await turn(g, gone.id, "write: left.txt left behind");
      const info = await worktreeInfo(g, gone.id);
      plantGitFolder(info.path, escaped);
      await g.stop();
      // The chat deleted while Parley was not there to clean up: its folder is an orphan at the next start.
      const db = openDatabase(path.join(home, "store.sqlite"));
      db.prepare("DELETE FROM chats WHERE id = ?").run(gone.id);
      db.close();
      g = await startChatFixture({ home });
      assert.ok(!fs.existsSync(escaped), "no filter of the chat's making ran");
      assert.ok(!fs.existsSync(info.path), "the leftover folder is gone");
      assert.equal(git(p.dir, "show", `${info.branch}:left.txt`), "left behind", "its work stays on its branch");
      const listed = git(p.dir, "worktree", "list", "--porcelain").match(/^worktree .*$/gm);
      assert.deepEqual(listed, [`worktree ${p.dir}`, `worktree ${kept.path}`]);
    } finally {
      await g.stop();
    }
  });

  it("merges hostile worktree files as git would: a link named like a project file pointing out, a folder made a link out, a 70 MB file; nothing outside changes", async () => {
    const p = await gitProject(f, root, "hostile-files", { "shared.txt": "one\n", "docs/readme.txt": "docs\n" });
    const outside = path.join(root, "outside");
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, "target.txt"), "outside the project\n");
    const outsideBefore = treeDigest(outside);
    const chat = await worktreeChat(f, p, "Hostile files");
    await turn(f, chat.id, "write: work.txt real work");
    const info = await worktreeInfo(f, chat.id);
    // What the chat's shell can do in its worktree.
    fs.rmSync(path.join(info.path, "shared.txt"));
    fs.symlinkSync(path.join(outside, "target.txt"), path.join(info.path, "shared.txt"));
    fs.rmSync(path.join(info.path, "docs"), { recursive: true });
    fs.symlinkSync(outside, path.join(info.path, "docs"));
    // Past git's output buffer in Parley (64 MB): the diff says it is too large rather than failing.
    const line = `${"x".repeat(99)}\n`;
    fs.writeFileSync(path.join(info.path, "huge.txt"), line.repeat(700_000));

    const listed = await worktreeInfo(f, chat.id);
    assert.deepEqual(listed.changedFiles.map((c) => c.path).sort(), [
      "docs",
      "docs/readme.txt",
      "huge.txt",
      "shared.txt",
      "work.txt",
    ]);
    const huge = await (await get(`/api/chats/${chat.id}/worktree/file?path=huge.txt`)).json();
    assert.deepEqual(huge, { path: "huge.txt", before: null, after: null, binary: true }, "too large to show");
    const merged = await merge(f, chat.id, "merge");
    assert.equal(merged.status, 200, await merged.text());
    assert.equal(
      fs.readlinkSync(path.join(p.dir, "shared.txt")),
      path.join(outside, "target.txt"),
      "a link, as git has it",
    );
    assert.equal(fs.readlinkSync(path.join(p.dir, "docs")), outside);
    assert.equal(fs.statSync(path.join(p.dir, "huge.txt")).size, 70_000_000);
    assert.deepEqual(treeDigest(outside), outsideBefore, "nothing outside the project changed");
    assert.equal(git(p.dir, "status", "--porcelain"), "");
  });

  it("ignores a `.git` file the chat plants in a folder or points elsewhere at its worktree's top: no 500, and its work merges without any `.git`", async () => {
    const p = await gitProject(f, root, "planted-git-files");
    const chat = await worktreeChat(f, p, "Planted git files");
    await turn(f, chat.id, "write: work.txt real work");
    const info = await worktreeInfo(f, chat.id);
    fs.mkdirSync(path.join(info.path, "nested"));
    fs.writeFileSync(path.join(info.path, "nested", ".git"), "gitdir: /etc\n");
    fs.writeFileSync(path.join(info.path, "nested", "inner.txt"), "inner\n");
    // The worktree's own `.git` file, pointed elsewhere: Parley's git does not follow it (see pinnedGit).
    fs.writeFileSync(path.join(info.path, ".git"), "gitdir: /etc\n");
    const listed = await worktreeInfo(f, chat.id);
    assert.deepEqual(listed.changedFiles.map((c) => c.path).sort(), ["nested/inner.txt", "work.txt"]);
    assert.equal((await get(`/api/chats/${chat.id}/worktree/file?path=work.txt`)).status, 200);
    assert.equal((await get(`/api/chats/${chat.id}/worktree/file?path=nested/.git`)).status, 404);
    const res = await merge(f, chat.id, "squash");
    const merged = await res.json();
    assert.equal(res.status, 200, JSON.stringify(merged));
    assert.deepEqual(merged.files.sort(), ["nested/inner.txt", "work.txt"]);
    assert.ok(fs.statSync(path.join(p.dir, ".git")).isDirectory(), "the project's .git is its own");
    assert.ok(!fs.existsSync(path.join(p.dir, "nested", ".git")), "no .git was merged");
    assert.equal(git(p.dir, "status", "--porcelain"), "");
    assert.equal((await discard(f, chat.id)).status, 204, "all merged: no force needed");
    assert.ok(!fs.existsSync(info.path), "the folder is gone");
    assert.ok(!git(p.dir, "worktree", "list", "--porcelain").includes(info.path), "git forgot it");
  });

  it("answers 409, never 500, when the chat's commands leave a worktree git cannot read, and still discards it", async () => {
    const p = await gitProject(f, root, "unreadable");
    const chat = await worktreeChat(f, p, "Unreadable");
    await turn(f, chat.id, "write: work.txt real work");
    const info = await worktreeInfo(f, chat.id);
    // A repository without a commit inside the worktree: `git add -A` refuses the whole tree.
    fs.mkdirSync(path.join(info.path, "empty-repo"));
    git(path.join(info.path, "empty-repo"), "init", "-q");
    const before = repoState(p.dir);
    for (const [what, res] of [
      ["worktree", await get(`/api/chats/${chat.id}/worktree`)],
      ["file", await get(`/api/chats/${chat.id}/worktree/file?path=work.txt`)],
      ["merge", await merge(f, chat.id, "merge")],
      ["discard", await discard(f, chat.id)],
    ] as const) {
      const body = await refused(res, 409, what);
      assert.match(body.error.message, /does not have a commit/, what);
    }
    const board = await (await get(`/api/projects/${p.id}/worktree-chats`)).json();
    assert.match(board.entries[0].error, /does not have a commit/, "the board says why");
    assert.deepEqual(repoState(p.dir), before, "the project did not change");
    assert.equal((await discard(f, chat.id, { force: true })).status, 204);
    assert.ok(!fs.existsSync(info.path));
  });

  it("never writes over a file the project ignores with one the chat's branch adds", async () => {
    const p = await gitProject(f, root, "ignored", {
      "shared.txt": "one\n",
      ".gitignore": ".app.json\n.env\nout\nbuild/\n",
    });
    fs.writeFileSync(path.join(p.dir, ".env"), "USER_TOKEN=the user's own\n");
    fs.writeFileSync(path.join(p.dir, "out"), "the user's build output\n");
    fs.mkdirSync(path.join(p.dir, "build"));
    fs.writeFileSync(path.join(p.dir, "build", "cache.bin"), "cache\n");
    const chat = await worktreeChat(f, p, "Ignored");
    await turn(f, chat.id, "write: .gitignore .app.json");
    await turn(f, chat.id, "write: .env FROM_THE_CHAT=1");
    await turn(f, chat.id, "write: out/x.txt a folder where the user has a file");
    await turn(f, chat.id, "write: build/new.txt new in an ignored folder");
    const before = repoState(p.dir);
    for (const mode of ["merge", "squash"] as const) {
      const body = await refused(await merge(f, chat.id, mode), 409, mode);
      assert.deepEqual((body.error.issues ?? []).map((i) => i.path).sort(), [".env", "out"]);
      assert.match(body.error.message, /ignores/);
      assert.deepEqual(repoState(p.dir), before, `${mode}: nothing changed`);
    }
    assert.equal(fs.readFileSync(path.join(p.dir, ".env"), "utf8"), "USER_TOKEN=the user's own\n");
    fs.renameSync(path.join(p.dir, ".env"), path.join(root, "moved.env"));
    fs.rmSync(path.join(p.dir, "out"));
    const res = await merge(f, chat.id, "merge");
    assert.equal(res.status, 200, await res.text());
    assert.equal(fs.readFileSync(path.join(p.dir, ".env"), "utf8"), "FROM_THE_CHAT=1");
    assert.equal(fs.readFileSync(path.join(p.dir, "build", "cache.bin"), "utf8"), "cache\n");
  });

  it("answers 404 for the board of an unknown project, and lists thirty worktree chats in a few seconds", async () => {
    await refused(await get("/api/projects/no-such-project/worktree-chats"), 404, "an unknown project");
    await refused(await get("/api/projects/..%2F..%2Fetc/worktree-chats"), 404, "a path for an id");
    const p = await gitProject(f, root, "board");
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const chat = await worktreeChat(f, p, `Agent ${i}`);
      fs.writeFileSync(path.join((await worktreeInfo(f, chat.id)).path, `agent-${i}.txt`), `work of ${i}\n`);
      ids.push(chat.id);
    }
    const started = Date.now();
    const res = await get(`/api/projects/${p.id}/worktree-chats`);
    const elapsed = Date.now() - started;
    const board = await res.json();
    assert.equal(res.status, 200, JSON.stringify(board));
    assert.equal(board.entries.length, 30);
    for (const entry of board.entries) {
      assert.equal(entry.error, undefined, entry.error);
      assert.equal(entry.worktree.changedFiles.length, 1);
    }
    assert.deepEqual(board.entries.map((e: { chat: { id: string } }) => e.chat.id).sort(), ids.sort());
    assert.ok(elapsed < 8_000, `the board of thirty took ${elapsed} ms`);
  });
});
