// kill -9 of `parley serve` during a worktree chat's turn (contract 7.6, issue 39): after a restart on
// the same home the worktree is usable (its info, a new turn, a merge), a stale `index.lock` in its git
// folder is gone, and worktree folders no chat owns (a chat row deleted while Parley was down, a
// worktree made by hand in Parley's folder) are removed with their uncommitted work kept on their branch.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../src/platform/db";
import { FakeGateway } from "../fake-gateway/server";
import { TEST_KEY } from "../helpers/chat-fixture";
import { startCli, type CliProcess } from "../helpers/cli-process";
import { branches, git, gitOk, initRepo } from "../helpers/git-repo";
import { until } from "../helpers/poll";
import { readEvents, type ReceivedEvent } from "../helpers/sse";
import { makeTempDir, removeDir } from "../helpers/temp";
import type { WorktreeInfo } from "../helpers/worktree-chats";

describe("worktree chats across kill -9", function () {
  this.timeout(120_000);
  let root: string;
  let gateway: FakeGateway;
  let cli: CliProcess | undefined;
  before(async () => {
    root = makeTempDir();
    gateway = await new FakeGateway().start();
  });
  after(async () => {
    if (cli && cli.child.exitCode === null) {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
    await gateway.stop();
    removeDir(root);
  });

  const project = () => path.join(root, "project");
  const home = () => path.join(root, "home");
  const start = () =>
    startCli(["serve", "--project", project(), "--home", home(), "--port", "0"], {
      APP_GATEWAY_BASE_URL: gateway.baseUrl,
      APP_GATEWAY_AUTH_URL: gateway.authUrl,
    });
  function api(method: string, route: string, body?: unknown): Promise<Response> {
    return fetch(`${cli!.ready.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${cli!.ready.token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }
  async function ok<T>(res: Promise<Response>, status = 200): Promise<T> {
    const answer = await res;
    const text = await answer.text();
    assert.equal(answer.status, status, text);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  const sendTurn = (chatId: string, content: string) =>
    api("POST", `/api/chats/${chatId}/messages/stream`, { content, modelId: "fake/tools" });
  async function writeTurn(chatId: string, file: string, text: string): Promise<void> {
    const events = await readEvents(await sendTurn(chatId, `write: ${file} ${text}`));
    const results = events.filter((e) => e.event === "tool.result");
    assert.deepEqual(
      results.map((e) => e.data.ok),
      [true],
      JSON.stringify(events.map((e) => e.event)),
    );
  }

  it("leaves every worktree usable after a restart, and cleans up what no chat owns", async () => {
    initRepo(project());
    cli = await start();
    const projectId = cli.ready.projects[0]!.id;
    await ok(
      api("PATCH", "/api/settings/app", {
        providers: [{ id: "gateway", apiKey: TEST_KEY }],
        toolGates: { file: "allow", shell: "allow" },
      }),
    );
    const newChat = (title: string) =>
      ok<{ id: string }>(api("POST", `/api/projects/${projectId}/chats`, { title, worktree: true }), 201);
    const slow = await newChat("Slow work");
    const gone = await newChat("Deleted offline");
    const slowInfo = await ok<WorktreeInfo>(api("GET", `/api/chats/${slow.id}/worktree`));
    const goneInfo = await ok<WorktreeInfo>(api("GET", `/api/chats/${gone.id}/worktree`));
    await writeTurn(slow.id, "before.txt", "written before the kill");
    await writeTurn(gone.id, "orphaned.txt", "work of a chat deleted while Parley was down");

    // A turn in the middle of a command (or, without a sandbox, waiting for its approval) when Parley dies.
    const started = path.join(slowInfo.path, "started");
    const turn = await sendTurn(slow.id, "shell: touch started && sleep 20 && echo done");
    assert.equal(turn.status, 200);
    let asked = false;
    const stream = readEvents(turn, (event: ReceivedEvent) => {
      if (event.event === "tool.approval") asked = true;
    });
    await until(() => asked || fs.existsSync(started), Boolean, "the command started (or asks for approval)", 20_000);
    cli.child.kill("SIGKILL");
    await cli.exited;
    await stream;

    // What a killed git leaves: a lock that would make every later `git add` fail.
    const gitDir = git(slowInfo.path, "rev-parse", "--absolute-git-dir");
    fs.writeFileSync(path.join(gitDir, "index.lock"), "");
    assert.ok(!gitOk(slowInfo.path, "add", "-A", "--dry-run", "."), "the lock blocks git");
    // A chat deleted while Parley was down: its row goes (its worktree row with it), its folder stays.
    const db = openDatabase(path.join(home(), "store.sqlite"));
    db.prepare("DELETE FROM chats WHERE id = ?").run(gone.id);
    db.close();
    // A worktree made by hand in Parley's folder, with uncommitted work.
    const handmade = path.join(home(), "worktrees", "handmade");
    git(project(), "worktree", "add", "-q", "-b", "handmade", handmade, "HEAD");
    fs.writeFileSync(path.join(handmade, "by-hand.txt"), "made by hand\n");

    cli = await start();
    assert.ok(!fs.existsSync(path.join(gitDir, "index.lock")), "the stale lock is gone");
    const after = await ok<WorktreeInfo>(api("GET", `/api/chats/${slow.id}/worktree`));
    assert.equal(after.state, "ready");
    assert.ok(
      after.changedFiles.some((file) => file.path === "before.txt"),
      JSON.stringify(after.changedFiles),
    );
    const board = await ok<{ entries: { chat: { id: string }; status: string }[] }>(
      api("GET", `/api/projects/${projectId}/worktree-chats`),
    );
    assert.deepEqual(
      board.entries.map((entry) => [entry.chat.id, entry.status]),
      [[slow.id, "failed"]],
      "the killed turn shows as failed, the deleted chat is gone",
    );
    await writeTurn(slow.id, "after.txt", "written after the restart");
    const merged = await ok<{ files: string[] }>(
      api("POST", `/api/chats/${slow.id}/worktree/merge`, { mode: "merge" }),
    );
    assert.ok(merged.files.includes("after.txt") && merged.files.includes("before.txt"), JSON.stringify(merged));
    assert.equal(fs.readFileSync(path.join(project(), "after.txt"), "utf8"), "written after the restart");
    assert.equal(git(project(), "status", "--porcelain"), "");

    // The orphans: folders gone, their work committed on their branches.
    assert.ok(!fs.existsSync(goneInfo.path), "the deleted chat's folder is gone");
    assert.ok(!fs.existsSync(handmade), "the hand-made worktree is gone");
    assert.equal(
      git(project(), "show", `${goneInfo.branch}:orphaned.txt`),
      "work of a chat deleted while Parley was down",
    );
    assert.equal(git(project(), "show", "handmade:by-hand.txt"), "made by hand");
    assert.ok(branches(project()).includes(goneInfo.branch));
    const listed = git(project(), "worktree", "list", "--porcelain")
      .split("\n")
      .filter((line) => line.startsWith("worktree "))
      .map((line) => line.slice("worktree ".length));
    assert.deepEqual(listed, [project(), slowInfo.path]);
  });
});
