// MCP servers against real servers from npm (@modelcontextprotocol/server-everything over stdio and
// Streamable HTTP, @modelcontextprotocol/server-filesystem on a temp folder): status, tools in the
// cache and the catalog, model calls through the agent loop with gates, secrets, trust, shutdown; and
// servers that misbehave (a fixture) for the bad-input paths.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { until as poll } from "../helpers/poll";
import { readEvents, type ReceivedEvent } from "../helpers/sse";
import { makeTempDir, removeDir } from "../helpers/temp";
import { EVERYTHING, FILESYSTEM, HOSTILE, freePort } from "../helpers/mcp-servers";

const node = process.execPath;

/** Waits until `probe` gives something (not undefined). */
async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 20_000): Promise<T> {
  return (await poll(probe, (value) => value !== undefined, `timed out waiting for ${what}`, ms))!;
}

describe("MCP servers", function () {
  this.timeout(90_000);
  let f: ChatFixture;
  let q: string;
  beforeEach(async () => {
    f = await startChatFixture();
    q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
  });
  afterEach(() => f.stop());

  const servers = async () => (await (await f.s.api("GET", `/api/mcp/servers?${q}`)).json()) as any[];
  const serverStatus = async (id: string) => (await servers()).find((s) => s.id === id);
  const ready = (id: string) =>
    until(
      async () => ((await serverStatus(id))?.status === "ready" ? serverStatus(id) : undefined),
      `${id} to be ready`,
    );
  const errored = (id: string) =>
    until(async () => ((await serverStatus(id))?.status === "error" ? serverStatus(id) : undefined), `${id} to fail`);
  const restart = (id: string) => f.s.api("POST", `/api/mcp/servers/${id}/restart?${q}`);

  async function modelCalls(
    calls: { name: string; arguments: unknown }[],
    answer: (e: ReceivedEvent, chatId: string) => unknown = () => undefined,
  ): Promise<ReceivedEvent[]> {
    f.gateway.enqueue({ kind: "reply", toolCalls: calls });
    const chat = await newChat(f, { modelId: "fake/tools" });
    const pending: Promise<unknown>[] = [];
    const events = await readEvents(await send(f, chat.id, { content: "go" }), (e) => {
      if (e.event === "tool.approval") pending.push(Promise.resolve(answer(e, chat.id)));
    });
    await Promise.all(pending);
    return events;
  }
  const allow = (e: ReceivedEvent, chatId: string) =>
    f.s.api("POST", `/api/chats/${chatId}/approvals/${e.data.callId}`, { decision: "allow" });

  it("runs server-everything over stdio: ready, tools cached and in the catalog, a model call with approval", async () => {
    const patch = await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [
        {
          id: "everything",
          transport: "stdio",
          command: node,
          args: [EVERYTHING, "stdio"],
          env: { PARLEY_TEST_SECRET: "s3cret-env-value" },
        },
      ],
    });
    const body = await patch.json();
    assert.deepEqual(body.mcpServers[0].env, { PARLEY_TEST_SECRET: "<secret>" }, "env values are secrets");
    assert.ok(!JSON.stringify(f.s.runtime.appStore.read()).includes("s3cret-env-value"));
    assert.equal((await serverStatus("everything")).status, "stopped", "not started before it is needed");
    assert.equal((await restart("everything")).status, 204);
    const status = await ready("everything");
    assert.ok(status.toolCount >= 5, JSON.stringify(status));
    const catalog = await (await f.s.api("GET", `/api/tools/catalog?${q}`)).json();
    const echo = catalog.find((t: any) => t.name === "mcp__everything__echo");
    assert.deepEqual([echo.kind, echo.serverId, echo.gate], ["mcp", "everything", "ask"]);
    assert.ok(
      f.s.runtime.mcp.toolsFor(await f.s.runtime.settings.snapshot(f.s.runtime.projects.byId(f.projectId))).length >= 5,
    );

    const events = await modelCalls(
      [
        { name: "mcp__everything__echo", arguments: { message: "hello mcp" } },
        { name: "mcp__everything__echo", arguments: { message: 5 } },
        { name: "mcp__everything__get-tiny-image", arguments: {} },
        { name: "mcp__everything__get-env", arguments: {} },
      ],
      allow,
    );
    const upstreamTools = (f.gateway.completions.at(-2)!.body as any).tools.map((t: any) => t.function.name);
    assert.ok(upstreamTools.includes("mcp__everything__echo"), "MCP tools are offered upstream");
    const results = events.filter((e) => e.event === "tool.result").map((e) => e.data);
    assert.deepEqual([results[0].ok, results[0].output], [true, "Echo: hello mcp"]);
    assert.equal(results[1].ok, false);
    assert.match(results[1].output, /schema.*message.*string/);
    assert.match(results[2].output, /\[image: image\/png, \d+ bytes\]/);
    assert.match(results[3].output, /s3cret-env-value/, "the env secret reaches the server it was saved for");
    assert.ok(!results[3].output.includes(f.s.token), "Parley's token never reaches it");
    assert.equal(
      events.filter((e) => e.event === "tool.approval").length,
      3,
      "MCP tools default to ask; invalid arguments never get that far",
    );
  });

  it("runs server-everything over Streamable HTTP, with its headers kept as secrets", async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(node, [EVERYTHING, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    try {
      await new Promise<void>((resolve) =>
        child.stderr!.on("data", (d) => String(d).includes("listening") && resolve()),
      );
      const patch = await f.s.api("PATCH", "/api/settings/app", {
        mcpServers: [
          {
            id: "remote",
            transport: "http",
            url: `http://127.0.0.1:${port}/mcp`,
            headers: { "X-Api-Key": "hdr-secret" },
          },
        ],
      });
      assert.deepEqual((await patch.json()).mcpServers[0].headers, { "X-Api-Key": "<secret>" });
      await restart("remote");
      await ready("remote");
      const events = await modelCalls([{ name: "mcp__remote__get-sum", arguments: { a: 2, b: 3 } }], allow);
      assert.match(events.find((e) => e.event === "tool.result")!.data.output, /5/);
    } finally {
      child.kill();
    }
  });

  it("runs server-filesystem on a temp folder", async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, "hello.txt"), "hi");
    try {
      // In the sandbox an app server sees its own working folder (the private /tmp hides the rest of /tmp).
      await f.s.api("PATCH", "/api/settings/app", {
        mcpServers: [{ id: "fs", transport: "stdio", command: node, args: [FILESYSTEM, dir], cwd: dir }],
        toolGates: { mcp__fs__list_directory: "allow" },
      });
      await restart("fs");
      await ready("fs");
      const events = await modelCalls([{ name: "mcp__fs__list_directory", arguments: { path: dir } }]);
      assert.match(events.find((e) => e.event === "tool.result")!.data.output, /hello\.txt/);
    } finally {
      removeDir(dir);
    }
  });

  it("keeps a project-defined stdio server untrusted until the user trusts the project", async () => {
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({ mcpServers: [{ id: "repo", transport: "stdio", command: node, args: [EVERYTHING, "stdio"] }] }),
    );
    const status = await serverStatus("repo");
    assert.equal(status.status, "untrusted");
    assert.match(status.command, /server-everything/);
    assert.equal((await restart("repo")).status, 400);
    const refused = await modelCalls([{ name: "mcp__repo__echo", arguments: { message: "x" } }]);
    assert.equal(refused.find((e) => e.event === "tool.result")!.data.ok, false);
    assert.equal((await f.s.api("POST", `/api/projects/${f.projectId}/trust`, { trusted: true })).status, 200);
    await ready("repo");
    assert.equal((await f.s.api("POST", `/api/projects/${f.projectId}/trust`, { trusted: "yes" })).status, 400);
  });

  it("stops every child when Parley shuts down (no orphans)", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "everything", transport: "stdio", command: node, args: [EVERYTHING, "stdio"] }],
    });
    await restart("everything");
    await ready("everything");
    const pids = (f.s.runtime.mcp as any).instances
      ? [...(f.s.runtime.mcp as any).instances.values()].map((i: any) => i.connection?.pid).filter(Boolean)
      : [];
    assert.equal(pids.length, 1);
    await f.s.runtime.mcp.stopAll();
    await until(
      async () => {
        try {
          process.kill(pids[0], 0);
          const state = fs.readFileSync(`/proc/${pids[0]}/stat`, "utf8").split(") ")[1]![0];
          return state === "Z" ? true : undefined;
        } catch {
          return true;
        }
      },
      "the child to exit",
      10_000,
    );
  });

  it("restarts a crashed server with backoff, and a server whose config changed", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "everything", transport: "stdio", command: node, args: [EVERYTHING, "stdio"] }],
    });
    await restart("everything");
    await ready("everything");
    const pidOf = () =>
      [...(f.s.runtime.mcp as any).instances.values()].map((i: any) => i.connection?.pid).find(Boolean) as
        number | undefined;
    const first = pidOf()!;
    process.kill(first, "SIGKILL");
    await errored("everything");
    await until(async () => (pidOf() && pidOf() !== first ? true : undefined), "a restart after the crash");
    await ready("everything");
    const second = pidOf()!;
    await f.s.api("PATCH", "/api/settings/app", { mcpServers: [{ id: "everything", name: "Everything, renamed" }] });
    await until(async () => (pidOf() && pidOf() !== second ? true : undefined), "a restart after the config change");
    assert.equal((await ready("everything")).name, "Everything, renamed");
  });

  it("never shows a server's cached tools for another configuration under the same id", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "srv", transport: "stdio", command: node, args: [EVERYTHING, "stdio"] }],
    });
    await restart("srv");
    assert.ok((await ready("srv")).toolCount >= 5);
    // Another command under the same id, not started (disabled): the old tool list is not its.
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "srv", enabled: false, args: [HOSTILE, "garbage"] }],
    });
    await until(async () => ((await serverStatus("srv"))?.status === "stopped" ? true : undefined), "srv to stop");
    assert.equal((await serverStatus("srv")).toolCount, 0);
    const catalog = await (await f.s.api("GET", `/api/tools/catalog?${q}`)).json();
    assert.ok(
      !catalog.some((t: any) => t.name.startsWith("mcp__srv__")),
      "nothing from the old command in the catalog",
    );
    // Put back as it was: its own cached list shows again before it starts.
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "srv", enabled: true, args: [EVERYTHING, "stdio"] }],
    });
    assert.ok((await serverStatus("srv")).toolCount >= 5);
  });

  it("reports servers that fail: a missing command, one that exits at once, one that never answers, garbage on stdout", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [
        { id: "missing", transport: "stdio", command: "/no/such/command" },
        { id: "exits", transport: "stdio", command: node, args: [HOSTILE, "exit"] },
        { id: "garbage", transport: "stdio", command: node, args: [HOSTILE, "garbage"] },
      ],
    });
    await Promise.all(["missing", "exits", "garbage"].map((id) => restart(id)));
    assert.match((await errored("missing")).error, /not found|ENOENT/);
    const exits = await errored("exits");
    assert.match(exits.error + (exits.stderrTail ?? ""), /boom: cannot start/);
    // Garbage lines are skipped by the SDK's framing; the server still answers.
    assert.equal((await ready("garbage")).toolCount, 1);
    const s = f.s.runtime;
    // A server that never answers `initialize`, with a short connect limit.
    (s.mcp as any).deps.connectTimeoutMs = 500;
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "hangs", transport: "stdio", command: node, args: [HOSTILE, "hang"] }],
    });
    await restart("hangs");
    assert.match((await errored("hangs")).error, /timed out|timeout/i);
    assert.equal((await f.s.api("GET", "/api/health")).status, 200);
  });

  it("caps 10,000 tools and a 50 MB result, and refuses calls to a tool whose schema is broken", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [
        { id: "many", transport: "stdio", command: node, args: [HOSTILE, "many-tools"] },
        { id: "huge", transport: "stdio", command: node, args: [HOSTILE, "huge-result"] },
        { id: "bad", transport: "stdio", command: node, args: [HOSTILE, "bad-schema"] },
      ],
      toolGates: { mcp__huge__big: "allow", mcp__bad__broken: "allow" },
    });
    await Promise.all(["many", "huge", "bad"].map((id) => restart(id)));
    const many = await ready("many");
    assert.equal(many.toolCount, 500);
    assert.match(many.error, /10000 tools/);
    await ready("huge");
    await ready("bad");
    const events = await modelCalls([
      { name: "mcp__huge__big", arguments: {} },
      { name: "mcp__bad__broken", arguments: { x: 1 } },
    ]);
    const [huge, bad] = events.filter((e) => e.event === "tool.result").map((e) => e.data);
    assert.equal(huge.ok, true, huge.output.slice(0, 300));
    assert.ok(huge.output.length < 70_000, `${huge.output.length}`);
    assert.equal(bad.ok, false);
    assert.match(bad.output, /input schema is invalid/);
    assert.equal(events.at(-1)!.event, "turn.end");
  });
});
