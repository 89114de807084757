// The agent loop over real HTTP with real processes and real files: tools sent upstream, streamed
// tool calls assembled, gates and approvals, results sent back, checkpoints and revert, limits.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, TEST_KEY, type ChatFixture } from "../helpers/chat-fixture";
import { until } from "../helpers/poll";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";

/** A process's command line, or "" once it is gone. */
function cmdline(pid: string): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return "";
  }
}

type Answer = (event: ReceivedEvent) => unknown;

describe("agent loop", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let q: string;
  beforeEach(async () => {
    f = await startChatFixture();
    q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
  });
  afterEach(() => f.stop());

  /** Sends a message to fake/tools, answering approvals and questions as `answer` says. */
  async function turn(
    content: string,
    answer: Answer = () => undefined,
    chatId?: string,
  ): Promise<{ events: ReceivedEvent[]; chatId: string }> {
    const id = chatId ?? (await newChat(f, { modelId: "fake/tools" })).id;
    const pending: Promise<unknown>[] = [];
    const events = await readEvents(await send(f, id, { content }), (event) => {
      if (event.event === "tool.approval" || event.event === "tool.question")
        pending.push(Promise.resolve(answer(event)));
    });
    await Promise.all(pending);
    return { events, chatId: id };
  }

  const approve =
    (chatId: () => string, decision: "allow" | "deny", remember = false) =>
    (event: ReceivedEvent) =>
      event.event === "tool.approval"
        ? f.s.api("POST", `/api/chats/${chatId()}/approvals/${event.data.callId}`, { decision, remember })
        : undefined;

  const names = (events: ReceivedEvent[]) =>
    events.map((e) => e.event).filter((n) => n !== "text.delta" && n !== "reasoning.delta");

  it("offers the tools upstream, asks before a shell call, runs it on Allow, and answers with its output", async () => {
    let chatId = "";
    const chat = await newChat(f, { modelId: "fake/tools" });
    chatId = chat.id;
    const { events } = await turn(
      "shell: echo hello-from-shell",
      approve(() => chatId, "allow"),
      chat.id,
    );
    // The context meter reports each request as it leaves, and the state the turn ends in (contract 7.3).
    assert.deepEqual(names(events), [
      "turn.start",
      "context",
      "usage",
      "tool.call",
      "tool.approval",
      "tool.result",
      "context",
      "usage",
      "context",
      "turn.end",
    ]);
    const result = events.find((e) => e.event === "tool.result")!.data;
    assert.equal(result.ok, true);
    assert.deepEqual(
      { ...result.output, output: result.output.output.trim() },
      { exitCode: 0, output: "hello-from-shell", truncated: false, timedOut: false },
    );
    assert.match(text(events), /Tool said: .*hello-from-shell/);
    const first = f.gateway.completions[0]!.body as any;
    assert.deepEqual(first.tools.map((t: any) => t.function.name).sort(), [
      "ask_user",
      "file",
      "report_progress",
      "shell",
      "task",
      "web_fetch",
    ]);
    const second = f.gateway.completions[1]!.body as any;
    const toolMessage = second.messages.at(-1);
    assert.equal(toolMessage.role, "tool");
    assert.equal(second.messages.at(-2).tool_calls[0].function.name, "shell");
    assert.equal(toolMessage.tool_call_id, second.messages.at(-2).tool_calls[0].id);
    // The transcript keeps the card pair, and the next turn sends it upstream again.
    const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    const tool = stored.messages.find((m: any) => m.role === "tool");
    assert.equal(tool.meta.name, "shell");
    assert.equal(tool.meta.ok, true);
    assert.equal(stored.usage.turns, 1, "the turn's usage is counted once");
    await turn("hi again", () => undefined, chat.id);
    const third = f.gateway.completions.at(-1)!.body as any;
    assert.ok(third.messages.some((m: any) => m.role === "tool" && m.content.includes("hello-from-shell")));
  });

  it("tells the model when the user denies a call, and runs nothing", async () => {
    const marker = path.join(f.s.projectDir, "denied-marker");
    const chat = await newChat(f, { modelId: "fake/tools" });
    const { events } = await turn(
      `shell: touch ${marker}`,
      approve(() => chat.id, "deny"),
      chat.id,
    );
    const result = events.find((e) => e.event === "tool.result")!.data;
    assert.deepEqual([result.ok, result.output], [false, "The user denied this call."]);
    assert.ok(!fs.existsSync(marker));
  });

  it("remembers an approval as the project's gate, and never offers or runs an off tool", async () => {
    const chat = await newChat(f, { modelId: "fake/tools" });
    await turn(
      "shell: true",
      approve(() => chat.id, "allow", true),
      chat.id,
    );
    const settings = await (await f.s.api("GET", `/api/settings/project?${q}`)).json();
    assert.deepEqual(settings.project.toolGates, { shell: "allow" });
    const { events } = await turn("shell: echo no-question", () => assert.fail("no approval expected"), chat.id);
    assert.ok(!names(events).includes("tool.approval"));

    await f.s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { shell: "off" } });
    const marker = path.join(f.s.projectDir, "off-marker");
    const off = await turn(`shell: touch ${marker}`, () => assert.fail("an off tool never asks"), chat.id);
    assert.ok(
      !(f.gateway.completions.at(-2)!.body as any).tools.some((t: any) => t.function.name === "shell"),
      "not offered",
    );
    const result = off.events.find((e) => e.event === "tool.result")!.data;
    assert.equal(result.ok, false);
    assert.match(result.output, /not available/);
    assert.ok(!fs.existsSync(marker), "never run");
  });

  it("writes and edits files with a checkpoint, and reverts the turn (409 when changed since, unless forced)", async () => {
    await f.s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { file: "allow" } });
    const file = path.join(f.s.projectDir, "notes.txt");
    fs.writeFileSync(file, "alpha beta\n");
    const chat = await newChat(f, { modelId: "fake/tools" });
    const edit = await turn("edit: notes.txt beta => gamma", () => assert.fail("file is allowed"), chat.id);
    assert.equal(fs.readFileSync(file, "utf8"), "alpha gamma\n");
    const editResult = edit.events.find((e) => e.event === "tool.result")!.data;
    assert.deepEqual(editResult.output, { path: "notes.txt", bytesBefore: 11, bytesAfter: 12 });
    assert.match(editResult.diff, /--- a\/notes\.txt\n\+\+\+ b\/notes\.txt[\s\S]*-alpha beta\n\+alpha gamma/);
    const storedTool = (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages.find(
      (m: any) => m.role === "tool",
    );
    assert.equal(storedTool.meta.diff, editResult.diff, "the card's diff comes back after a reload");
    const turnId = edit.events[0]!.data.turnId;
    const created = await turn("write: new/made.txt fresh file", () => undefined, chat.id);
    assert.equal(fs.readFileSync(path.join(f.s.projectDir, "new/made.txt"), "utf8"), "fresh file");

    fs.writeFileSync(file, "changed by hand\n");
    const conflict = await f.s.api("POST", `/api/chats/${chat.id}/turns/${turnId}/revert`, {});
    assert.equal(conflict.status, 409);
    assert.match((await conflict.json()).error.message, /notes\.txt/);
    assert.equal(fs.readFileSync(file, "utf8"), "changed by hand\n", "nothing reverted on a conflict");
    const forced = await f.s.api("POST", `/api/chats/${chat.id}/turns/${turnId}/revert`, { force: true });
    assert.deepEqual(await forced.json(), { restored: ["notes.txt"], removed: [] });
    assert.equal(fs.readFileSync(file, "utf8"), "alpha beta\n");
    const removed = await f.s.api("POST", `/api/chats/${chat.id}/turns/${created.events[0]!.data.turnId}/revert`, {});
    assert.deepEqual(await removed.json(), { restored: [], removed: ["new/made.txt"] });
    assert.ok(!fs.existsSync(path.join(f.s.projectDir, "new/made.txt")));
    assert.equal(
      (await f.s.api("POST", `/api/chats/${chat.id}/turns/${turnId}/revert`, {})).status,
      404,
      "a reverted turn has nothing left",
    );
  });

  it("asks before a write when file is gated ask, never before a read", async () => {
    fs.writeFileSync(path.join(f.s.projectDir, "a.txt"), "x\n");
    const chat = await newChat(f, { modelId: "fake/tools" });
    const asked: string[] = [];
    await turn(
      "write: a.txt y",
      (e) => {
        asked.push(e.event);
        return approve(() => chat.id, "allow")(e);
      },
      chat.id,
    );
    assert.deepEqual(asked, ["tool.approval"]);
    f.gateway.enqueue({ kind: "reply", toolCalls: [{ name: "file", arguments: { action: "read", path: "a.txt" } }] });
    const read = await turn("read it", () => assert.fail("reads never ask"), chat.id);
    assert.match(read.events.find((e) => e.event === "tool.result")!.data.output, /1\ty/);
  });

  it("refuses paths out of the project, .app.json, .git and symlinks that lead out", async () => {
    await f.s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { file: "allow" } });
    const outside = path.join(path.dirname(f.s.projectDir), "outside.txt");
    fs.writeFileSync(outside, "secret\n");
    fs.symlinkSync(outside, path.join(f.s.projectDir, "link.txt"));
    fs.mkdirSync(path.join(f.s.projectDir, ".git"));
    const calls = [
      { action: "read", path: "../outside.txt" },
      { action: "read", path: outside },
      { action: "read", path: "link.txt" },
      { action: "write", path: "link.txt", content: "pwned" },
      { action: "write", path: ".app.json", content: '{"toolGates":{"shell":"allow"}}' },
      { action: "write", path: ".git/hooks/pre-commit", content: "evil" },
      { action: "write", path: "sub/../../escape.txt", content: "x" },
    ];
    f.gateway.enqueue({ kind: "reply", toolCalls: calls.map((args) => ({ name: "file", arguments: args })) });
    const { events } = await turn("go");
    const results = events.filter((e) => e.event === "tool.result").map((e) => e.data);
    assert.equal(results.length, calls.length);
    for (const result of results) assert.equal(result.ok, false, JSON.stringify(result));
    assert.equal(fs.readFileSync(outside, "utf8"), "secret\n");
    assert.ok(
      !fs.existsSync(path.join(f.s.projectDir, ".app.json")) ||
        !fs.readFileSync(path.join(f.s.projectDir, ".app.json"), "utf8").includes("shell"),
    );
    assert.ok(!fs.existsSync(path.join(f.s.projectDir, ".git/hooks/pre-commit")));
    assert.ok(!fs.existsSync(path.join(path.dirname(f.s.projectDir), "escape.txt")));
  });

  it("answers bad arguments, unknown tools and broken JSON with a failed result, and stops a repeated failing call", async () => {
    f.gateway.enqueue(
      {
        kind: "reply",
        toolCalls: [
          { name: "shell", arguments: "{not json" },
          { name: "shell", arguments: { command: "ls" } },
          { name: "rm_rf", arguments: {} },
        ],
      },
      { kind: "reply", toolCalls: [{ name: "file", arguments: { action: "read", path: "missing.txt" } }] },
      { kind: "reply", toolCalls: [{ name: "file", arguments: { action: "read", path: "missing.txt" } }] },
      { kind: "reply", toolCalls: [{ name: "file", arguments: { action: "read", path: "missing.txt" } }] },
    );
    const { events } = await turn("go");
    const results = events.filter((e) => e.event === "tool.result").map((e) => e.data);
    assert.match(results[0].output, /not valid JSON/);
    assert.match(results[1].output, /cmd/);
    assert.match(results[2].output, /not available/);
    const error = events.find((e) => e.event === "error")!.data;
    assert.equal(error.code, "repeated_failure");
    assert.equal(events.at(-1)!.event, "turn.end");
  });

  it("stops at the step limit and at the budget", async () => {
    await f.s.api("PATCH", "/api/settings/app", { chat: { maxSteps: 2 } });
    const loop = { kind: "reply" as const, toolCalls: [{ name: "report_progress", arguments: { message: "again" } }] };
    f.gateway.enqueue(loop, loop, loop);
    const limited = await turn("go");
    assert.equal(limited.events.find((e) => e.event === "error")!.data.code, "step_limit");
    assert.equal(f.gateway.completions.length, 2);
    await f.s.api("PATCH", "/api/settings/app", { chat: { maxSteps: 50, maxTurnCost: 0.0000001 } });
    f.gateway.enqueue(loop, loop);
    const budget = await turn("go");
    assert.equal(budget.events.find((e) => e.event === "error")!.data.code, "budget_exceeded");
    assert.equal(budget.events.at(-1)!.event, "turn.end");
  });

  it("answers ask_user, updates the task list and the status line", async () => {
    const chat = await newChat(f, { modelId: "fake/tools" });
    const asked = await turn(
      "ask: Deploy now?",
      (e) =>
        e.event === "tool.question"
          ? f.s.api("POST", `/api/chats/${chat.id}/answers/${e.data.callId}`, { answer: "yes" })
          : undefined,
      chat.id,
    );
    assert.deepEqual(asked.events.find((e) => e.event === "tool.question")!.data.choices, ["yes", "no"]);
    assert.match(text(asked.events), /Tool said: yes/);
    const tasks = await turn("tasks: build, test", () => undefined, chat.id);
    assert.deepEqual(tasks.events.find((e) => e.event === "task.update")!.data.items, [
      { title: "build", status: "in_progress" },
      { title: "test", status: "pending" },
    ]);
    assert.equal(tasks.events.find((e) => e.event === "progress")!.data.message, "working on build");
    assert.equal((await f.s.api("POST", `/api/chats/${chat.id}/answers/nope`, { answer: "x" })).status, 404);
    assert.equal((await f.s.api("POST", `/api/chats/${chat.id}/approvals/nope`, { decision: "allow" })).status, 404);
  });

  it("ends a turn waiting for an approval at once on cancel, running nothing", async () => {
    const marker = path.join(f.s.projectDir, "cancel-marker");
    const chat = await newChat(f, { modelId: "fake/tools" });
    const { events } = await turn(
      `shell: touch ${marker}`,
      () => f.s.api("POST", `/api/chats/${chat.id}/cancel`),
      chat.id,
    );
    assert.equal(events.at(-1)!.event, "turn.end");
    assert.equal(events.at(-1)!.data.finishReason, "cancelled");
    assert.ok(!fs.existsSync(marker));
  });

  it("runs shell with a clean environment, a capped output, and a timeout that kills the whole group", async () => {
    await f.s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { shell: "allow" } });
    // Found by its arguments, not by `$!`: inside the sandbox's own process namespace that number is
    // not the process's number on the host.
    const marker = `${30 + Math.random()}`;
    f.gateway.enqueue({
      kind: "reply",
      toolCalls: [
        { name: "shell", arguments: { cmd: "env" } },
        { name: "shell", arguments: { cmd: "head -c 52428800 /dev/zero | tr '\\\\0' a" } },
        { name: "shell", arguments: { cmd: `sleep ${marker} & echo started; sleep 30`, timeoutMs: 500 } },
      ],
    });
    const { events } = await turn("go");
    const [env, big, slow] = events.filter((e) => e.event === "tool.result").map((e) => e.data.output);
    assert.ok(!env.output.includes(TEST_KEY) && !env.output.includes(f.s.token), "no key or token in the environment");
    assert.ok(!/APP_|PARLEY|VSCODE/.test(env.output));
    assert.equal(big.truncated, true);
    assert.ok(big.output.length < 70_000, `${big.output.length}`);
    assert.equal(slow.timedOut, true);
    assert.match(slow.output, /started/, "the background child was started");
    // Gone, or a zombie waiting for a reaper: either way no longer running.
    const stateOf = () => {
      const pid = fs
        .readdirSync("/proc")
        .find((entry) => /^\d+$/.test(entry) && cmdline(entry) === `sleep\0${marker}\0`);
      return pid ? fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0]! : "gone";
    };
    const state = await until(
      stateOf,
      (s) => s === "gone" || s === "Z",
      "the background child dies with its group",
      2_000,
    ).catch(() => stateOf());
    assert.ok(state === "gone" || state === "Z", `the background child died with its group (state ${state})`);
  });

  it("lists the tool catalog with gates", async () => {
    await f.s.api("PATCH", `/api/settings/project?${q}`, { toolGates: { shell: "off" } });
    const catalog = await (await f.s.api("GET", `/api/tools/catalog?${q}`)).json();
    const gate = (name: string) => catalog.find((t: any) => t.name === name).gate;
    assert.deepEqual([gate("shell"), gate("file"), gate("task")], ["off", "ask", "allow"]);
    assert.equal(catalog.find((t: any) => t.name === "shell").kind, "native");
  });
});
