// Subagents, custom actions and direct dispatch (contract 6.5, 6.6) over real HTTP, with the fake
// gateway as every model and real processes for shell.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { until } from "../helpers/poll";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";

describe("direct runs from the composer", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let q: string;
  const appJson = (value: unknown) => fs.writeFileSync(path.join(f.s.projectDir, ".app.json"), JSON.stringify(value));
  const project = (extra: Record<string, unknown> = {}) =>
    appJson({
      prompts: [{ id: "review", title: "Reviewer", content: "You review code.", role: "system" }],
      agents: [
        { name: "reviewer", description: "Reviews", model: "fake/tools", tools: ["shell", "file"], promptId: "review" },
        { name: "ghost", description: "Pinned to a model that does not exist", model: "nope/nope" },
      ],
      actions: [
        { id: "hello", label: "Say hello", description: "echo", run: { shell: "echo hello-action; exit 3" } },
        { id: "sum", label: "Sum", description: "MCP", run: { tool: "mcp__none__sum", arguments: { a: 1 } } },
      ],
      toolGates: { shell: "allow" },
      ...extra,
    });
  beforeEach(async () => {
    f = await startChatFixture();
    q = f.s.projectDir;
    project();
    // The user's own gate: the repository's `allow` counts only once the project is trusted (contract 7.1).
    await f.s.api("PATCH", "/api/settings/app", { toolGates: { shell: "allow" } });
  });
  afterEach(() => f.stop());

  it("routes composer text as the spec says", async () => {
    const route = async (text: string) =>
      await (await f.s.api("POST", "/api/composer/route", { projectDir: q, text })).json();
    assert.deepEqual(await route("@reviewer look at this"), { kind: "agent", agent: "reviewer", task: "look at this" });
    assert.deepEqual(await route("@shell ls -la"), { kind: "tool", tool: "shell", arguments: { cmd: "ls -la" } });
    assert.deepEqual(await route("@hello"), { kind: "action", action: "hello" });
    assert.deepEqual(await route("@reviewer"), { kind: "message" });
    assert.deepEqual(await route('@shell "unterminated'), { kind: "message" });
    assert.equal((await f.s.api("POST", "/api/composer/route", { projectDir: q })).status, 400);
  });

  it("runs an agent directly: its loop on the chat's stream with parentCallId, its answer persisted", async () => {
    appJson({
      ...JSON.parse(fs.readFileSync(path.join(q, ".app.json"), "utf8")),
      toolGates: { shell: "allow", subagent: "ask" },
    });
    const chat = await newChat(f, { modelId: "fake/echo" });
    const running = f.s.api("POST", "/api/tools/subagent", {
      projectDir: q,
      chatId: chat.id,
      agent: "reviewer",
      task: "shell: echo from-the-agent",
    });
    // The approval holds the run, so the stream can be followed from its start.
    const followed: ReceivedEvent[] = [];
    const openStream = async () => {
      const res = await fetch(`${f.s.url}/api/chats/${chat.id}/stream`, {
        headers: { authorization: `Bearer ${f.s.token}` },
      });
      if (res.status !== 200) await res.body?.cancel();
      return res;
    };
    const stream = await until(openStream, (res) => res.status === 200, "the run's live stream");
    const done = readEvents(stream, (e) => {
      followed.push(e);
      if (e.event === "tool.approval")
        void f.s.api("POST", `/api/chats/${chat.id}/approvals/${e.data.callId}`, { decision: "allow" });
    });
    const body = await (await running).json();
    await done;
    assert.equal(body.agent, "reviewer");
    assert.equal(body.model, "fake/tools");
    assert.match(body.output, /Tool said: .*from-the-agent/);
    const names = followed
      .map((e) => `${e.event}${e.data?.name ? `:${e.data.name}` : ""}${e.data?.parentCallId ? "^" : ""}`)
      .filter((n) => !n.startsWith("usage"));
    assert.deepEqual(names, [
      "turn.start",
      "tool.call:subagent",
      "tool.approval:subagent",
      "tool.call:shell^",
      "tool.result:shell^",
      "tool.result:subagent",
      "text.delta",
      "turn.end",
    ]);
    const [sub] = f.gateway.completions.slice(-2).map((r) => r.body as any);
    assert.deepEqual(sub.messages.slice(0, 2), [
      { role: "system", content: "You review code." },
      { role: "user", content: "shell: echo from-the-agent" },
    ]);
    assert.deepEqual(
      sub.tools.map((t: any) => t.function.name).sort(),
      ["file", "shell"],
      "its allowlist, without subagent",
    );
    const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    assert.equal(stored.messages.at(-1).role, "assistant");
    assert.match(stored.messages.at(-1).content, /from-the-agent/);
    assert.ok(stored.messages.some((m: any) => m.role === "tool" && m.meta.parentCallId === body.callId));
    // A later model turn sees the subagent's answer, not its inner calls.
    await readEvents(await send(f, chat.id, { content: "thanks" }));
    const later = f.gateway.completions.at(-1)!.body as any;
    const inner = stored.messages.find((m: any) => m.meta?.parentCallId).meta.callId;
    assert.ok(!later.messages.some((m: any) => m.tool_call_id === inner), "inner calls stay inside the card");
    assert.ok(later.messages.some((m: any) => m.role === "tool" && m.content.includes("from-the-agent")));
  });

  it("lets a model call a subagent, counting its usage in the turn, without nesting", async () => {
    f.gateway.enqueue({
      kind: "reply",
      toolCalls: [{ name: "subagent", arguments: { agent: "reviewer", task: "shell: echo nested" } }],
    });
    const chat = await newChat(f, { modelId: "fake/tools" });
    const events = await readEvents(await send(f, chat.id, { content: "delegate" }));
    assert.ok(
      (f.gateway.completions[0]!.body as any).tools.some((t: any) => t.function.name === "subagent"),
      "offered when agents exist",
    );
    const result = events.find((e) => e.event === "tool.result" && e.data.name === "subagent")!.data;
    assert.equal(result.ok, true);
    assert.match(result.output, /nested/);
    assert.match(text(events), /Tool said: .*nested/);
    const usages = events.filter((e) => e.event === "usage").map((e) => e.data.totalTokens);
    const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    assert.equal(
      stored.usage.totalTokens,
      usages.reduce((a: number, b: number) => a + b, 0),
      "the subagent's steps count in the turn",
    );
  });

  it("refuses an unknown agent (404), an off subagent gate (403), and reports a pinned model that does not exist", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    assert.equal(
      (await f.s.api("POST", "/api/tools/subagent", { projectDir: q, chatId: chat.id, agent: "nobody", task: "x" }))
        .status,
      404,
    );
    const ghost = await (
      await f.s.api("POST", "/api/tools/subagent", { projectDir: q, chatId: chat.id, agent: "ghost", task: "x" })
    ).json();
    assert.match(ghost.output, /nope\/nope/);
    const huge = await f.s.api("POST", "/api/tools/subagent", {
      projectDir: q,
      chatId: chat.id,
      agent: "reviewer",
      task: "x".repeat(1_100_000),
    });
    assert.ok([400, 413].includes(huge.status));
    project({ toolGates: { subagent: "off" } });
    assert.equal(
      (await f.s.api("POST", "/api/tools/subagent", { projectDir: q, chatId: chat.id, agent: "reviewer", task: "x" }))
        .status,
      403,
    );
  });

  it("dispatches shell as a card pair, refuses file tools (400) and off tools (403)", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    const res = await (
      await f.s.api("POST", "/api/tools/dispatch", {
        projectDir: q,
        chatId: chat.id,
        tool: "shell",
        arguments: { cmd: "echo dispatched" },
        callId: "my-call-1",
      })
    ).json();
    assert.deepEqual([res.callId, res.ok, res.output.output.trim()], ["my-call-1", true, "dispatched"]);
    const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    assert.deepEqual(
      stored.messages.map((m: any) => m.role),
      ["assistant", "tool"],
    );
    assert.equal(stored.messages[1].meta.callId, "my-call-1");
    assert.equal(
      (
        await f.s.api("POST", "/api/tools/dispatch", {
          projectDir: q,
          chatId: chat.id,
          tool: "file",
          arguments: { action: "read", path: "x" },
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await f.s.api("POST", "/api/tools/dispatch", {
          projectDir: q,
          chatId: chat.id,
          tool: "mcp__none__sum",
          arguments: {},
        })
      ).status,
      400,
    );
    project({ toolGates: { shell: "off" } });
    assert.equal(
      (
        await f.s.api("POST", "/api/tools/dispatch", {
          projectDir: q,
          chatId: chat.id,
          tool: "shell",
          arguments: { cmd: "true" },
        })
      ).status,
      403,
    );
  });

  it("dispatches an MCP tool whose arguments fit its schema (picker syntax from the composer)", async () => {
    const everything = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    await f.s.api("PATCH", "/api/settings/app", {
      toolGates: { "mcp__everything__get-sum": "allow" },
      mcpServers: [{ id: "everything", transport: "stdio", command: process.execPath, args: [everything, "stdio"] }],
    });
    await f.s.api("POST", `/api/mcp/servers/everything/restart?projectDir=${encodeURIComponent(q)}`);
    const chat = await newChat(f, { modelId: "fake/echo" });
    const route = await (
      await f.s.api("POST", "/api/composer/route", { projectDir: q, text: "@mcp__everything__get-sum:a=`2` b=`3`" })
    ).json();
    assert.deepEqual(route, { kind: "tool", tool: "mcp__everything__get-sum", arguments: { a: 2, b: 3 } });
    const res = await f.s.api("POST", "/api/tools/dispatch", {
      projectDir: q,
      chatId: chat.id,
      tool: route.tool,
      arguments: route.arguments,
    });
    assert.equal(res.status, 200, await res.clone().text());
    const ran = await res.json();
    assert.equal(ran.ok, true);
    assert.match(JSON.stringify(ran.output), /5/);
    assert.equal(
      (
        await f.s.api("POST", "/api/tools/dispatch", {
          projectDir: q,
          chatId: chat.id,
          tool: route.tool,
          arguments: { a: "two" },
        })
      ).status,
      400,
      "arguments that do not fit",
    );
  });

  it("runs a shell action only in a trusted project, and shows a failing command's exit code", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    assert.equal((await f.s.api("POST", "/api/actions/hello/run", { projectDir: q, chatId: chat.id })).status, 403);
    await f.s.api("POST", `/api/projects/${f.projectId}/trust`, { trusted: true });
    const ran = await (await f.s.api("POST", "/api/actions/hello/run", { projectDir: q, chatId: chat.id })).json();
    assert.equal(ran.ok, true);
    assert.equal(ran.output.exitCode, 3);
    assert.match(ran.output.output, /hello-action/);
    assert.equal((await f.s.api("POST", "/api/actions/nothing/run", { projectDir: q, chatId: chat.id })).status, 404);
    assert.equal(
      (await f.s.api("POST", "/api/actions/sum/run", { projectDir: q, chatId: chat.id })).status,
      400,
      "an MCP tool the project does not have",
    );
  });

  it("sets an agent's prompt from the Agents page, keeping everything else in .app.json", async () => {
    const file = path.join(q, ".app.json");
    const before = JSON.parse(fs.readFileSync(file, "utf8"));
    before.agents.push({ name: "??broken", custom: 1 });
    before.agents[0].extra = { keep: true };
    fs.writeFileSync(file, JSON.stringify(before));
    assert.equal((await f.s.api("PUT", "/api/agents/ghost/prompt", { projectDir: q, promptId: "review" })).status, 204);
    const after = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(after.agents[1].promptId, "review");
    assert.deepEqual(after.agents[0].extra, { keep: true });
    assert.deepEqual(after.agents[2], { name: "??broken", custom: 1 }, "a damaged entry stays");
    assert.equal((await f.s.api("PUT", "/api/agents/ghost/prompt", { projectDir: q, promptId: null })).status, 204);
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).agents[1].promptId, undefined);
    assert.equal((await f.s.api("PUT", "/api/agents/nobody/prompt", { projectDir: q, promptId: null })).status, 404);
    assert.equal(
      (await f.s.api("PUT", "/api/agents/ghost/prompt", { projectDir: q, promptId: "no-such" })).status,
      404,
    );
  });
});
