// The `file:read` grant (Plan mode's tools): the model is offered `file` with reading actions only,
// and a tool context granting `file:read` refuses writes, edits and every tool it does not list.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { runFileTool } from "../../../src/tools/file-tool";
import { PendingInteractions } from "../../../src/tools/interactions";
import { fileArgsSchema, nativeTool, READ_ONLY_FILE } from "../../../src/tools/native-tools";
import { offeredTools } from "../../../src/tools/offered-tools";
import { runToolCall, type ToolRunContext } from "../../../src/tools/tool-runner";
import { UntrustedInput } from "../../../src/tools/untrusted-input";
import type { StreamEvent } from "../../../src/shared/stream-events";
import { PLAN_AGENT } from "../../../src/projects/built-in-agents";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("the read-only file grant", () => {
  let root: string;
  beforeEach(() => {
    root = makeTempDir();
    fs.writeFileSync(path.join(root, "notes.txt"), "first line\nsecond line\n");
  });
  afterEach(() => removeDir(root));

  /** A tool context granting `tools`, with every gate open (Plan's limits hold whatever the gates say). */
  function context(tools: readonly string[], events: StreamEvent[] = []): ToolRunContext {
    return {
      chatId: "c_1",
      root,
      signal: new AbortController().signal,
      tools: new Set(tools),
      gates: { shell: "allow", file: "allow", subagent: "allow", mcp__calc__sum: "allow" },
      emit: (event) => events.push(event),
      interactions: new PendingInteractions(),
      recordWrite: () => assert.fail("nothing may be recorded as written"),
      rememberAllow: async () => assert.fail("nothing may be remembered"),
      logError: (line) => assert.fail(line),
      runSubagent: async () => assert.fail("no subagent may run"),
      mcpCall: async () => assert.fail("no MCP tool may run"),
      untrusted: new UntrustedInput(),
    };
  }
  const call = (name: string, args: unknown) => ({ id: "call_1", name, arguments: JSON.stringify(args) });

  it("offers `file` with read, list and search only, and no writing argument", () => {
    const [tool] = offeredTools([READ_ONLY_FILE], {});
    const parameters = tool!.function.parameters as any;
    assert.equal(tool!.function.name, "file", "the model calls it `file`, as ever");
    assert.deepEqual(parameters.properties.action.enum, ["read", "list", "search"]);
    for (const key of ["content", "oldText", "newText", "replaceAll"])
      assert.equal(parameters.properties[key], undefined);
    assert.match(tool!.function.description, /reading only/);
  });

  it("follows the `file` gate, and gives way to a full `file` grant in the same list", () => {
    assert.deepEqual(
      offeredTools([READ_ONLY_FILE, "task"], { file: "off" }).map((t) => t.function.name),
      ["task"],
    );
    const both = offeredTools(["file", READ_ONLY_FILE], {});
    assert.equal(both.length, 1, "one `file` only");
    assert.deepEqual(both[0]!.function.parameters, nativeTool("file")!.parameters);
  });

  it("offers exactly the Plan agent's tools as file, ask_user and task", () => {
    assert.deepEqual(
      offeredTools(PLAN_AGENT.tools, {}, [], true).map((t) => t.function.name),
      ["file", "ask_user", "task"],
    );
  });

  it("runs read, list and search through the grant", async () => {
    const ctx = context(PLAN_AGENT.tools);
    const read = await runToolCall(call("file", { action: "read", path: "notes.txt" }), ctx);
    assert.equal(read.ok, true);
    assert.match(String(read.output), /second line/);
    assert.equal((await runToolCall(call("file", { action: "list" }), ctx)).output, "notes.txt");
    const search = await runToolCall(call("file", { action: "search", pattern: "second" }), ctx);
    assert.match(String(search.output), /notes\.txt:2/);
  });

  it("refuses write and edit before they run, in words, with the file untouched and nothing put to the user", async () => {
    const events: StreamEvent[] = [];
    const ctx = context(PLAN_AGENT.tools, events);
    for (const args of [
      { action: "write", path: "notes.txt", content: "gone" },
      { action: "write", path: "new.txt", content: "made" },
      { action: "edit", path: "notes.txt", oldText: "first", newText: "last" },
    ]) {
      const outcome = await runToolCall(call("file", args), ctx);
      assert.equal(outcome.ok, false);
      assert.match(String(outcome.output), new RegExp(`only reads .*"${args.action}" is not allowed`));
    }
    assert.equal(fs.readFileSync(path.join(root, "notes.txt"), "utf8"), "first line\nsecond line\n");
    assert.equal(fs.existsSync(path.join(root, "new.txt")), false);
    assert.equal(events.filter((e) => e.event === "tool.approval").length, 0);
  });

  it("refuses every tool the grant does not list: shell, subagent, report_progress, an MCP tool", async () => {
    const ctx = context(PLAN_AGENT.tools);
    for (const [name, args] of [
      ["shell", { cmd: "touch made.txt" }],
      ["subagent", { agent: "helper", task: "write it" }],
      ["report_progress", { message: "nearly" }],
      ["mcp__calc__sum", { a: 1, b: 2 }],
    ] as const) {
      const outcome = await runToolCall(call(name, args), ctx);
      assert.equal(outcome.ok, false, name);
      assert.match(String(outcome.output), /is not available in this chat/, name);
    }
    assert.equal(fs.existsSync(path.join(root, "made.txt")), false);
  });

  it("leaves a full `file` grant writing as before", async () => {
    const outcome = await runToolCall(call("file", { action: "write", path: "new.txt", content: "made" }), {
      ...context(["file"]),
      recordWrite: () => undefined,
    });
    assert.equal(outcome.ok, true, String(outcome.output));
    assert.equal(fs.readFileSync(path.join(root, "new.txt"), "utf8"), "made");
  });

  it("the file tool itself refuses to write in read-only mode, whatever its caller checked", async () => {
    for (const args of [
      fileArgsSchema.parse({ action: "write", path: "notes.txt", content: "gone" }),
      fileArgsSchema.parse({ action: "edit", path: "notes.txt", oldText: "first", newText: "last" }),
    ]) {
      await assert.rejects(runFileTool(args, { root, readOnly: true }), /only reads here/);
    }
    assert.equal(fs.readFileSync(path.join(root, "notes.txt"), "utf8"), "first line\nsecond line\n");
  });
});
