// MCP servers nobody here wrote, the way users run them (issue 34): context7 (2020-12 schemas) over
// stdio and Streamable HTTP, server-everything over Streamable HTTP and the older HTTP+SSE transport,
// a remote server that restarts, servers switched off while running or while starting, a server too
// slow to start, a server added just before the first turn, and Parley's own stop. Bad paths use the
// fixture server (test/fixtures/mcp/hostile-server.mjs).
import assert from "node:assert/strict";
import path from "node:path";
import { newChat, send, startChatFixture, TEST_KEY, type ChatFixture } from "../helpers/chat-fixture";
import { startCli } from "../helpers/cli-process";
import {
  CONTEXT7,
  EVERYTHING,
  HOSTILE,
  freePort,
  startEverything,
  startGone,
  startHttpServer,
  startsIn,
} from "../helpers/mcp-servers";
import { until } from "../helpers/poll";
import { readEvents, type ReceivedEvent } from "../helpers/sse";
import { makeTempDir, removeDir } from "../helpers/temp";

const node = process.execPath;

describe("MCP interop: real servers from npm, restarts, switching off, slow starts", function () {
  this.timeout(90_000);
  let f: ChatFixture;
  let q: string;
  let tmp: string;
  beforeEach(async () => {
    f = await startChatFixture();
    q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
    tmp = makeTempDir("parley-mcp-");
  });
  afterEach(async () => {
    await f.stop();
    removeDir(tmp);
  });

  const servers = async () => (await (await f.s.api("GET", `/api/mcp/servers?${q}`)).json()) as any[];
  const serverStatus = async (id: string) => (await servers()).find((s) => s.id === id);
  const statusIs = (id: string, wanted: (s: any) => boolean, what: string, ms = 30_000) =>
    until(
      () => serverStatus(id),
      (s) => s !== undefined && wanted(s),
      what,
      ms,
    );
  const ready = (id: string) => statusIs(id, (s) => s.status === "ready", `${id} to be ready`);
  const restart = (id: string) => f.s.api("POST", `/api/mcp/servers/${id}/restart?${q}`);
  const setServers = async (mcpServers: unknown[]) => {
    const res = await f.s.api("PATCH", "/api/settings/app", { mcpServers });
    assert.equal(res.status, 200, await res.clone().text());
  };

  /** A turn of `fake/tools` that calls each of `calls` (approving them), and its events. */
  async function modelCalls(calls: { name: string; arguments: unknown }[]): Promise<ReceivedEvent[]> {
    f.gateway.enqueue({ kind: "reply", toolCalls: calls });
    const chat = await newChat(f, { modelId: "fake/tools" });
    const pending: Promise<unknown>[] = [];
    const events = await readEvents(await send(f, chat.id, { content: "go" }), (e) => {
      if (e.event === "tool.approval")
        pending.push(f.s.api("POST", `/api/chats/${chat.id}/approvals/${e.data.callId}`, { decision: "allow" }));
    });
    await Promise.all(pending);
    return events;
  }
  const results = (events: ReceivedEvent[]) => events.filter((e) => e.event === "tool.result").map((e) => e.data);
  const lastOfferedTools = () =>
    ((f.gateway.completions.at(-1)!.body as any).tools ?? []).map((t: any) => t.function) as {
      name: string;
      parameters: Record<string, unknown>;
    }[];

  describe("schemas of every JSON Schema draft", () => {
    it("calls context7's tools (2020-12 schemas) over stdio, and sends the model their schemas without $schema", async () => {
      await setServers([{ id: "context7", transport: "stdio", command: node, args: [CONTEXT7] }]);
      await restart("context7");
      await ready("context7");
      const events = await modelCalls([
        {
          name: "mcp__context7__resolve-library-id",
          arguments: { query: "routing in the app router", libraryName: "next.js" },
        },
        { name: "mcp__context7__resolve-library-id", arguments: { libraryName: 7 } },
      ]);
      const [valid, invalid] = results(events);
      // The call reached the server: what comes back is context7's own answer (this machine has no
      // internet, so its lookup fails in its own words), not a schema the check could not load.
      assert.doesNotMatch(valid.output, /schema|no schema with key/i, valid.output);
      assert.match(valid.output, /fetch failed|Error searching|librar/i, valid.output);
      assert.equal(invalid.ok, false);
      assert.match(invalid.output, /query|must be string/, invalid.output);
      const offered = lastOfferedTools().find((t) => t.name === "mcp__context7__resolve-library-id")!;
      assert.ok(offered, "context7's tool is offered to the model");
      assert.equal("$schema" in offered.parameters, false, JSON.stringify(offered.parameters));
      assert.deepEqual(offered.parameters.required, ["query", "libraryName"]);
    });

    it("calls context7 over Streamable HTTP", async () => {
      const port = await freePort();
      const server = await startHttpServer([CONTEXT7, "--transport", "http", "--port", String(port)], port);
      try {
        await setServers([{ id: "c7", transport: "http", url: `http://127.0.0.1:${port}/mcp` }]);
        await restart("c7");
        assert.ok((await ready("c7")).toolCount >= 2);
        const [result] = results(
          await modelCalls([{ name: "mcp__c7__resolve-library-id", arguments: { query: "q", libraryName: "react" } }]),
        );
        assert.doesNotMatch(result.output, /schema/i, result.output);
      } finally {
        await server.stop();
      }
    });
  });

  describe("the older HTTP+SSE transport", () => {
    it("connects with transport sse, and an http entry falls back to SSE when the POST answers 404", async () => {
      const port = await freePort();
      const server = await startEverything("sse", port);
      try {
        const url = `http://127.0.0.1:${port}/sse`;
        await setServers([
          { id: "old", transport: "sse", url },
          { id: "guess", transport: "http", url },
        ]);
        await Promise.all([restart("old"), restart("guess")]);
        await ready("old");
        await ready("guess");
        const [viaSse, viaFallback] = results(
          await modelCalls([
            { name: "mcp__old__get-sum", arguments: { a: 2, b: 3 } },
            { name: "mcp__guess__get-sum", arguments: { a: 4, b: 5 } },
          ]),
        );
        assert.match(viaSse.output, /5/);
        assert.match(viaFallback.output, /9/);
      } finally {
        await server.stop();
      }
    });

    it("shows an error page's words, not its HTML, when a URL is no MCP server at all", async () => {
      const port = await freePort();
      const server = await startEverything("sse", port); // Express: 404 "Cannot POST /nothing" pages
      try {
        await setServers([{ id: "nothing", transport: "http", url: `http://127.0.0.1:${port}/nothing` }]);
        await restart("nothing");
        const failed = await statusIs("nothing", (s) => s.status === "error", "the server to fail");
        assert.doesNotMatch(failed.error, /<\/?(html|pre|body)|<!DOCTYPE/i, failed.error);
        assert.match(failed.error, /404|Cannot/);
      } finally {
        await server.stop();
      }
    });
  });

  describe("a remote server that restarts", () => {
    it("leaves ready when the server goes away, and works again after it comes back, with no manual restart", async () => {
      const port = await freePort();
      let server = await startEverything("streamableHttp", port);
      try {
        await setServers([{ id: "remote", transport: "http", url: `http://127.0.0.1:${port}/mcp` }]);
        await restart("remote");
        await ready("remote");
        assert.match(
          results(await modelCalls([{ name: "mcp__remote__get-sum", arguments: { a: 1, b: 1 } }]))[0].output,
          /2/,
        );
        await server.stop();
        const lost = await statusIs("remote", (s) => s.status !== "ready", "the status to leave ready");
        assert.ok(["error", "starting"].includes(lost.status), JSON.stringify(lost));
        server = await startEverything("streamableHttp", port);
        await ready("remote");
        const [again] = results(await modelCalls([{ name: "mcp__remote__get-sum", arguments: { a: 2, b: 2 } }]));
        assert.equal(again.ok, true, again.output);
        assert.match(again.output, /4/);
      } finally {
        await server.stop();
      }
    });

    it("reconnects and retries a call the restarted server answers 'no valid session'", async () => {
      const port = await freePort();
      let server = await startEverything("streamableHttp", port);
      try {
        await setServers([{ id: "remote", transport: "http", url: `http://127.0.0.1:${port}/mcp` }]);
        await restart("remote");
        await ready("remote");
        // Restarted between two calls, faster than the connection notices: the next call meets the
        // new process, which does not know the old session id.
        await server.stop();
        server = await startEverything("streamableHttp", port);
        const [result] = results(await modelCalls([{ name: "mcp__remote__get-sum", arguments: { a: 3, b: 4 } }]));
        assert.equal(result.ok, true, result.output);
        assert.match(result.output, /7/);
        assert.equal((await serverStatus("remote")).status, "ready");
      } finally {
        await server.stop();
      }
    });
  });

  describe("switching a server off", () => {
    it("stops a running server that ignores SIGTERM, and starts no other", async () => {
      const pidFile = path.join(tmp, "pids");
      const entry = {
        id: "stubborn",
        transport: "stdio",
        command: node,
        args: [HOSTILE, "stubborn"],
        env: { PARLEY_TEST_PIDFILE: pidFile },
        // Its own working folder: where a sandboxed app server may write (its pid file).
        cwd: tmp,
      };
      await setServers([entry]);
      await restart("stubborn");
      await ready("stubborn");
      const [start] = startsIn(pidFile);
      assert.equal(startGone(start!), false, "the server's process is found while it runs");
      await setServers([{ id: "stubborn", enabled: false }]);
      await until(() => startGone(start!), Boolean, "the disabled server's process to end", 15_000);
      const status = await serverStatus("stubborn");
      assert.equal(status.status, "stopped");
      assert.equal(status.enabled, false);
      assert.deepEqual(startsIn(pidFile), [start], "no process was started again");
      assert.equal([...(f.s.runtime.mcp as any).instances.keys()].length, 0);
    });

    it("stops a server that is still starting", async () => {
      const pidFile = path.join(tmp, "pids");
      await setServers([
        {
          id: "slow",
          transport: "stdio",
          command: node,
          args: [HOSTILE, "slow", "60000"],
          env: { PARLEY_TEST_PIDFILE: pidFile },
          cwd: tmp,
        },
      ]);
      void restart("slow");
      const [start] = await until(
        () => startsIn(pidFile),
        (p) => p.length === 1,
        "the slow server to start",
      );
      assert.equal((await serverStatus("slow")).status, "starting");
      assert.equal(startGone(start!), false, "the server's process is found while it starts");
      await setServers([{ id: "slow", enabled: false }]);
      await until(() => startGone(start!), Boolean, "the starting server's process to end", 15_000);
      assert.equal((await serverStatus("slow")).status, "stopped");
    });
  });

  describe("a server slower than the start-up limit", () => {
    it("fails with the limit as its error (mcp.startupTimeoutMs), and is retried with growing delays", async () => {
      const pidFile = path.join(tmp, "pids");
      const res = await f.s.api("PATCH", "/api/settings/app", {
        mcp: { startupTimeoutMs: 1_000 },
        mcpServers: [
          {
            id: "slow",
            transport: "stdio",
            command: node,
            args: [HOSTILE, "slow", "60000"],
            env: { PARLEY_TEST_PIDFILE: pidFile },
            cwd: tmp,
          },
        ],
      });
      assert.equal(res.status, 200, await res.clone().text());
      await restart("slow");
      const failed = await statusIs("slow", (s) => s.status === "error", "the start to time out");
      assert.match(failed.error, /did not finish starting within 1 s.*mcp\.startupTimeoutMs/);
      const [first] = await until(
        () => startsIn(pidFile),
        (p) => p.length >= 2,
        "a second start",
        20_000,
      );
      await until(() => startGone(first!), Boolean, "the timed-out process to end", 15_000);
      const instance = [...(f.s.runtime.mcp as any).instances.values()][0];
      await until(
        () => instance.attempts,
        (n: number) => n >= 2,
        "two failed starts counted for the backoff",
        20_000,
      );
    });

    it("refuses a start-up limit out of range with the contract's error", async () => {
      const res = await f.s.api("PATCH", "/api/settings/app", { mcp: { startupTimeoutMs: 5 } });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error.code, "invalid_request");
    });
  });

  describe("resources and prompts", () => {
    const everything = { id: "everything", transport: "stdio", command: node, args: [EVERYTHING, "stdio"] };
    const get = async (route: string) => {
      const res = await f.s.api("GET", `${route}?${q}`);
      return { status: res.status, body: (await res.json()) as any };
    };

    it("lists a server's resources and prompts, and counts them in its status", async () => {
      await setServers([everything]);
      const resources = await get("/api/mcp/servers/everything/resources");
      assert.equal(resources.status, 200);
      const architecture = resources.body.find((r: any) => r.name === "architecture.md");
      assert.equal(architecture.uri, "demo://resource/static/document/architecture.md");
      assert.equal(architecture.mimeType, "text/markdown");
      const prompts = await get("/api/mcp/servers/everything/prompts");
      const args = prompts.body.find((p: any) => p.name === "args-prompt");
      assert.deepEqual(
        args.arguments.map((a: any) => [a.name, a.required]),
        [
          ["city", true],
          ["state", false],
        ],
      );
      const status = await serverStatus("everything");
      assert.equal(status.resourceCount, resources.body.length);
      assert.equal(status.promptCount, prompts.body.length);
    });

    it("fills a prompt's arguments into the composer's text, and says which required one is missing", async () => {
      await setServers([everything]);
      const route = `/api/mcp/servers/everything/prompts/args-prompt?${q}`;
      const filled = await f.s.api("POST", route, { arguments: { city: "Lisbon" } });
      assert.equal(filled.status, 200);
      assert.match((await filled.json()).text, /Lisbon/);
      const missing = await f.s.api("POST", route, { arguments: {} });
      assert.equal(missing.status, 400);
      assert.match((await missing.json()).error.message, /needs "city"/);
      const unknown = await f.s.api("POST", `/api/mcp/servers/everything/prompts/nope?${q}`, {});
      assert.equal(unknown.status, 400);
      const noServer = await get("/api/mcp/servers/nobody/prompts");
      assert.equal(noServer.status, 400);
      assert.match(noServer.body.error.message, /no MCP server/);
    });

    it("offers a ready server's resources and prompts in the @ popup, as MCP rows that say what they are", async () => {
      await setServers([everything]);
      await restart("everything");
      await ready("everything");
      const rows = (await (await f.s.api("GET", `/api/mentions/search?${q}&q=arch`)).json()) as any[];
      const resource = rows.find((r) => r.mcp?.kind === "resource");
      assert.deepEqual(
        {
          category: resource.category,
          label: resource.label,
          detail: resource.detail,
          insertText: resource.insertText,
          mcp: resource.mcp,
        },
        {
          category: "mcp",
          label: "everything › architecture.md",
          detail: "Resource · text/markdown",
          insertText: "@everything:architecture.md",
          mcp: {
            kind: "resource",
            serverId: "everything",
            uri: "demo://resource/static/document/architecture.md",
            name: "architecture.md",
          },
        },
      );
      assert.equal(
        rows.find((r) => r.category !== "files").label,
        resource.label,
        "the best match for arch after files",
      );
      const prompts = (await (await f.s.api("GET", `/api/mentions/search?${q}&q=Arguments`)).json()) as any[];
      const args = prompts.find((r) => r.mcp?.kind === "prompt");
      assert.equal(args.label, "everything › Arguments Prompt");
      assert.match(args.detail, /^Prompt · A prompt with two arguments/);
      assert.deepEqual(
        args.mcp.arguments.map((a: any) => [a.name, a.required === true]),
        [
          ["city", true],
          ["state", false],
        ],
      );
      const catalog = (await (await f.s.api("GET", `/api/mentions/catalog?${q}`)).json()) as any;
      assert.ok(
        catalog.mcp.some((r: any) => r.mcp?.kind === "resource") && catalog.mcp.some((r: any) => !r.mcp),
        "the catalog's mcp list holds tools, resources and prompts alike",
      );
    });

    it("attaches a resource to a message: sent to the model like a referenced file, stored as the message's chip", async () => {
      await setServers([everything]);
      const chat = await newChat(f, { modelId: "fake/echo" });
      const uri = "demo://resource/static/document/architecture.md";
      const events = await readEvents(
        await send(f, chat.id, { content: "summarise it", referencedResources: [{ serverId: "everything", uri }] }),
      );
      assert.ok(
        events.some((e) => e.event === "turn.end"),
        JSON.stringify(events.map((e) => e.event)),
      );
      const sent = (f.gateway.completions.at(-1)!.body as any).messages as { role: string; content: string }[];
      const attached = sent.find((m) => m.role === "user" && m.content.startsWith("Resource: architecture.md"));
      assert.ok(attached, JSON.stringify(sent.map((m) => m.content.slice(0, 60))));
      assert.match(attached.content, /Everything Server/);
      const stored = (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages as any[];
      const row = stored.find((m) => m.meta?.kind === "resource");
      assert.deepEqual([row.meta.serverId, row.meta.uri, row.meta.path], ["everything", uri, "architecture.md"]);

      const bad = await send(f, chat.id, {
        content: "and this",
        referencedResources: [{ serverId: "everything", uri: "demo://no/such/thing" }],
      });
      assert.equal(bad.status, 400);
      assert.match((await bad.json()).error.message, /could not read demo:\/\/no\/such\/thing/);
    });
  });

  describe("hostile servers", () => {
    it("a server that dies during a call: the call fails in words, the status says why, the server comes back", async () => {
      await setServers([{ id: "fragile", transport: "stdio", command: node, args: [HOSTILE, "dies-mid-call"] }]);
      await restart("fragile");
      await ready("fragile");
      const [result] = results(await modelCalls([{ name: "mcp__fragile__fragile", arguments: {} }]));
      assert.equal(result.ok, false);
      assert.match(result.output, /the server stopped during the call|Connection closed/, result.output);
      await ready("fragile"); // restarted with backoff, no manual Restart
    });

    it("a server that restarts with new tool schemas: calls are checked against the new schema", async () => {
      await setServers([{ id: "shifty", transport: "stdio", command: node, args: [HOSTILE, "new-schemas"] }]);
      await restart("shifty");
      await ready("shifty");
      const instance = () => [...(f.s.runtime.mcp as any).instances.values()][0];
      // Each start names its argument after itself (hostile-server.mjs).
      const argument = () =>
        instance().status === "ready" ? (instance().tools[0].inputSchema.required[0] as string) : undefined;
      const first = argument()!;
      process.kill(instance().connection.pid, "SIGKILL");
      const second = await until(argument, (a) => a !== undefined && a !== first, "the server to start again", 20_000);
      await ready("shifty");
      const [stale, fresh] = results(
        await modelCalls([
          { name: "mcp__shifty__shifty", arguments: { [first]: "old" } },
          { name: "mcp__shifty__shifty", arguments: { [second!]: "new" } },
        ]),
      );
      assert.equal(stale.ok, false);
      assert.match(stale.output, new RegExp(second!), stale.output);
      assert.equal(fresh.ok, true, fresh.output);
      const offered = lastOfferedTools().find((t) => t.name === "mcp__shifty__shifty")!;
      assert.deepEqual(offered.parameters.required, [second], "the model is offered the new schema");
    });
  });

  describe("readiness", () => {
    it("offers a server added just before the first turn in that very turn", async () => {
      await setServers([{ id: "everything", transport: "stdio", command: node, args: [EVERYTHING, "stdio"] }]);
      const events = await modelCalls([{ name: "mcp__everything__get-sum", arguments: { a: 20, b: 22 } }]);
      assert.ok(
        lastOfferedTools().some((t) => t.name === "mcp__everything__get-sum"),
        "the new server's tools are in the first request",
      );
      const [result] = results(events);
      assert.equal(result.ok, true, result.output);
      assert.match(result.output, /42/);
    });
  });
});

describe("MCP servers and Parley's own start and stop", function () {
  this.timeout(90_000);
  let root: string;
  beforeEach(() => (root = makeTempDir("parley-mcp-cli-")));
  afterEach(() => removeDir(root));

  it("starts the app's servers with Parley, and leaves none behind when stopped, one that ignores SIGTERM included", async () => {
    const pidFile = path.join(root, "pids");
    const args = ["serve", "--project", root, "--home", path.join(root, "home"), "--port", "0"];
    const env = { APP_GATEWAY_BASE_URL: "http://127.0.0.1:9" };
    let cli = await startCli(args, env);
    const res = await fetch(`${cli.ready.url}/api/settings/app`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${cli.ready.token}`, "content-type": "application/json" },
      body: JSON.stringify({
        providers: [{ id: "gateway", apiKey: TEST_KEY }],
        mcpServers: [
          {
            id: "stubborn",
            transport: "stdio",
            command: node,
            args: [HOSTILE, "stubborn"],
            env: { PARLEY_TEST_PIDFILE: pidFile },
            cwd: root,
          },
        ],
      }),
    });
    assert.equal(res.status, 200);
    // An app server starts as soon as it is added: no turn, no status page asked for it.
    const [first] = await until(
      () => startsIn(pidFile),
      (p) => p.length === 1,
      "the app server to start",
      20_000,
    );
    assert.equal(startGone(first!), false, "the server's process is found while it runs");
    cli.child.kill("SIGTERM");
    await cli.exited;
    await until(() => startGone(first!), Boolean, "the server to end with Parley", 5_000);

    // Started again: the app's server starts with Parley, before anything asks for it.
    cli = await startCli(args, env);
    const [, second] = await until(
      () => startsIn(pidFile),
      (p) => p.length === 2,
      "the app server to start",
      20_000,
    );
    cli.child.kill("SIGTERM");
    await cli.exited;
    await until(() => startGone(second!), Boolean, "the server to end with Parley", 5_000);
  });
});
