import assert from "node:assert/strict";
import { z } from "zod";
import {
  askUserArgsSchema,
  fileArgsSchema,
  mcpToolId,
  NATIVE_TOOL_NAMES,
  NATIVE_TOOLS,
  nativeTool,
  SHELL_MAX_TIMEOUT_MS,
  shellArgsSchema,
  taskArgsSchema,
  WEB_FETCH_MAX_BYTES,
  webFetchArgsSchema,
} from "../../../src/tools/native-tools";

describe("native tools and their argument schemas", () => {
  it("lists the seven native tools with the default gates of the contract; shell and web_fetch run from the composer", () => {
    assert.deepEqual(
      NATIVE_TOOLS.map((t) => [t.name, t.defaultGate, t.directlyInvocable, t.positional]),
      [
        ["shell", "ask", true, "cmd"],
        ["file", "ask", false, undefined],
        ["subagent", "allow", false, undefined],
        ["report_progress", "allow", false, undefined],
        ["task", "allow", false, undefined],
        ["ask_user", "allow", false, undefined],
        ["web_fetch", "ask", true, "url"],
      ],
    );
    assert.deepEqual(
      [...NATIVE_TOOL_NAMES],
      NATIVE_TOOLS.map((t) => t.name),
    );
    assert.ok(NATIVE_TOOLS.every((t) => t.description.length > 0));
  });

  it("tells the model exactly what it accepts: each tool's parameters are its schema as JSON Schema", () => {
    for (const tool of NATIVE_TOOLS) {
      const { $schema: _dialect, ...expected } = z.toJSONSchema(tool.args) as Record<string, unknown>;
      assert.deepEqual(tool.parameters, expected, tool.name);
      assert.equal(tool.parameters.type, "object", tool.name);
      assert.equal("$schema" in tool.parameters, false, `${tool.name}: no dialect line goes upstream`);
    }
  });

  it("requires what a call cannot do without, and describes every argument", () => {
    const required = Object.fromEntries(NATIVE_TOOLS.map((t) => [t.name, [...(t.parameters.required ?? [])].sort()]));
    assert.deepEqual(required, {
      shell: ["cmd"],
      file: ["action"],
      subagent: ["agent", "task"],
      report_progress: ["message"],
      task: ["items"],
      ask_user: ["question"],
      web_fetch: ["url"],
    });
    for (const tool of NATIVE_TOOLS) {
      for (const [name, property] of Object.entries(tool.parameters.properties ?? {})) {
        assert.equal(
          typeof (property as { description?: unknown }).description,
          "string",
          `${tool.name}.${name} has a description`,
        );
      }
    }
  });

  it("takes a shell call with a command and an optional folder and time limit within ten minutes", () => {
    assert.ok(shellArgsSchema.safeParse({ cmd: "ls -la" }).success);
    assert.ok(shellArgsSchema.safeParse({ cmd: "make", cwd: "web", timeoutMs: SHELL_MAX_TIMEOUT_MS }).success);
    assert.equal(SHELL_MAX_TIMEOUT_MS, 600_000);
    for (const bad of [
      {},
      { cmd: "" },
      { cmd: 1 },
      { cmd: "x", timeoutMs: 0 },
      { cmd: "x", timeoutMs: 1.5 },
      { cmd: "x", timeoutMs: SHELL_MAX_TIMEOUT_MS + 1 },
    ]) {
      assert.equal(shellArgsSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it("takes a file call for one of its five actions, with 1-based lines and bounded limits", () => {
    for (const action of ["read", "list", "search", "write", "edit"])
      assert.ok(fileArgsSchema.safeParse({ action }).success, action);
    assert.ok(
      fileArgsSchema.safeParse({ action: "edit", path: "a.ts", oldText: "x", newText: "", replaceAll: true }).success,
    );
    for (const bad of [
      { action: "delete" },
      { action: "read", offset: 0 },
      { action: "read", limit: 10_001 },
      { action: "search", pattern: "" },
      { action: "edit", oldText: "" },
    ]) {
      assert.equal(fileArgsSchema.safeParse(bad).success, false, JSON.stringify(bad));
    }
  });

  it("bounds a task list and a question's choices", () => {
    const item = { title: "t", status: "pending" };
    assert.ok(taskArgsSchema.safeParse({ items: Array(200).fill(item) }).success);
    assert.equal(taskArgsSchema.safeParse({ items: Array(201).fill(item) }).success, false);
    assert.equal(taskArgsSchema.safeParse({ items: [{ title: "t", status: "blocked" }] }).success, false);
    assert.ok(askUserArgsSchema.safeParse({ question: "Which?", choices: Array(20).fill("a") }).success);
    assert.equal(askUserArgsSchema.safeParse({ question: "Which?", choices: Array(21).fill("a") }).success, false);
    assert.equal(askUserArgsSchema.safeParse({ question: "Which?", choices: [""] }).success, false);
  });

  it("takes a web_fetch call with a URL and an optional positive whole maxBytes (clamped, not refused, above 5 MB)", () => {
    assert.equal(WEB_FETCH_MAX_BYTES, 5 * 1024 * 1024);
    assert.ok(webFetchArgsSchema.safeParse({ url: "https://example.com/" }).success);
    assert.ok(webFetchArgsSchema.safeParse({ url: "https://example.com/", maxBytes: WEB_FETCH_MAX_BYTES * 4 }).success);
    for (const bad of [{}, { url: "" }, { url: 1 }, { url: "x", maxBytes: 0 }, { url: "x", maxBytes: 1.5 }])
      assert.equal(webFetchArgsSchema.safeParse(bad).success, false, JSON.stringify(bad));
  });

  it("finds a native tool by name, and names MCP tools mcp__<server>__<tool>", () => {
    assert.equal(nativeTool("file")?.name, "file");
    assert.equal(nativeTool("mcp__calc__add"), undefined);
    assert.equal(nativeTool("toString"), undefined);
    assert.equal(mcpToolId("calc", "add"), "mcp__calc__add");
  });
});
