// A worktree chat's commands in the real bubblewrap sandbox (contracts 7.5 and 7.6): git commits from
// inside the worktree land on the chat's branch, while the project's own tree and the repository's
// hooks stay read-only. The project lives under /var/tmp, outside the private /tmp the sandbox gives
// every command, so a refused write is refused by the read-only file system and not hidden by that
// /tmp. Skipped, with the reason, where bubblewrap cannot run.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { git, gitOk } from "../helpers/git-repo";
import { removeDir } from "../helpers/temp";
import { readEvents } from "../helpers/sse";
import {
  gitProject,
  startTurn,
  toolResults,
  turn,
  worktreeChat,
  worktreeInfo,
  type Project,
} from "../helpers/worktree-chats";
import { Sandbox } from "../../src/tools/sandbox/sandbox";

const OUTSIDE_TMP = "/var/tmp";

describe("a worktree chat's commands in the sandbox", function () {
  this.timeout(120_000);
  let f: ChatFixture | undefined;
  let root: string | undefined;
  let p: Project;

  before(async function () {
    const availability = await new Sandbox({ appHome: "/nonexistent-parley-home" }).availability();
    if (!availability.available || availability.kind !== "bwrap") {
      console.log(
        `      (skipped: no bubblewrap sandbox here: ${availability.available ? availability.kind : availability.reason})`,
      );
      this.skip();
    }
    if (!fs.existsSync(OUTSIDE_TMP)) {
      console.log(`      (skipped: no ${OUTSIDE_TMP} to keep the project outside the sandbox's private /tmp)`);
      this.skip();
    }
    root = fs.realpathSync(fs.mkdtempSync(path.join(OUTSIDE_TMP, "parley-worktree-sandbox-")));
    f = await startChatFixture();
    const res = await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow", shell: "allow" } });
    assert.ok(res.ok, await res.text());
    p = await gitProject(f, root, "project");
  });
  after(async () => {
    await f?.stop();
    if (root) removeDir(root);
  });

  /** A `shell:` turn's command: its exit code and what it printed. */
  async function shell(chatId: string, cmd: string): Promise<{ exitCode: number; output: string }> {
    const res = await startTurn(f!, chatId, `shell: ${cmd}`);
    assert.equal(res.status, 200, await res.clone().text());
    const [result] = toolResults(await readEvents(res));
    assert.ok(result, `the command ran: ${cmd}`);
    const { exitCode, output } = result.data.output as { exitCode: number; output: string };
    return { exitCode, output };
  }

  it("commits inside its worktree onto its branch, and cannot write the project's tree or its hooks", async () => {
    const chat = await worktreeChat(f!, p, "Sandboxed");
    const info = await worktreeInfo(f!, chat.id);
    const mainBefore = git(p.dir, "rev-parse", "main");
    await turn(f!, chat.id, "write: inside.txt made in the worktree");
    const committed = await shell(
      chat.id,
      "git add -A && git -c user.name=Agent -c user.email=agent@example.invalid commit -qm 'from the sandbox' && git log -1 --format=%s",
    );
    assert.equal(committed.exitCode, 0, committed.output);
    assert.match(committed.output, /from the sandbox/);
    assert.equal(
      git(p.dir, "log", "-1", "--format=%s", info.branch),
      "from the sandbox",
      "the commit is on its branch",
    );
    assert.equal(git(p.dir, "show", `${info.branch}:inside.txt`), "made in the worktree");
    assert.equal(git(p.dir, "rev-parse", "main"), mainBefore, "main did not move");
    assert.equal(git(info.path, "status", "--porcelain"), "");

    const escape = path.join(p.dir, "escape.txt");
    const escaped = await shell(chat.id, `echo x > ${escape}`);
    assert.notEqual(escaped.exitCode, 0);
    assert.match(escaped.output, /Read-only file system/, escaped.output);
    assert.ok(!fs.existsSync(escape), "the project's tree is read-only to the chat's commands");

    const hook = path.join(p.dir, ".git", "hooks", "pre-commit");
    assert.ok(fs.existsSync(path.dirname(hook)), "git made a hooks folder");
    const hooked = await shell(chat.id, `printf '#!/bin/sh\\ntouch /tmp/owned\\n' > ${hook} && chmod +x ${hook}`);
    assert.notEqual(hooked.exitCode, 0);
    assert.match(hooked.output, /Read-only file system/, hooked.output);
    assert.ok(!fs.existsSync(hook), "the repository's hooks are read-only");
    const configured = await shell(chat.id, `git config --file ${path.join(p.dir, ".git", "config")} core.pager evil`);
    assert.notEqual(configured.exitCode, 0);
    // git writes a new config and renames it over the old one: the read-only mount refuses (EBUSY).
    assert.match(configured.output, /could not (write|lock) config|Read-only file system/, configured.output);
    assert.ok(!gitOk(p.dir, "config", "--get", "core.pager"), "the repository's config is read-only");
    assert.equal(git(p.dir, "status", "--porcelain"), "");

    // The user's own git state is out of reach: their branch, their HEAD and their index.
    const moved = await shell(chat.id, `git update-ref refs/heads/main ${info.branch}`);
    assert.notEqual(moved.exitCode, 0, moved.output);
    assert.equal(git(p.dir, "rev-parse", "main"), mainBefore, "main did not move");
    const switched = await shell(chat.id, `git --git-dir=${path.join(p.dir, ".git")} symbolic-ref HEAD refs/heads/x`);
    assert.notEqual(switched.exitCode, 0, switched.output);
    assert.equal(git(p.dir, "symbolic-ref", "--short", "HEAD"), "main");
    const indexBefore = fs.readFileSync(path.join(p.dir, ".git", "index"));
    const staged = await shell(chat.id, `: > ${path.join(p.dir, ".git", "index")}`);
    assert.notEqual(staged.exitCode, 0, staged.output);
    assert.deepEqual(fs.readFileSync(path.join(p.dir, ".git", "index")), indexBefore, "the user's index is untouched");
  });
});
