import assert from "node:assert/strict";
import { changesState, isUntrustedSource, UntrustedInput } from "../../../src/tools/untrusted-input";

describe("untrusted input: the rules", () => {
  it("counts every MCP tool and web_fetch as a source, and nothing of Parley's own", () => {
    assert.deepEqual(["mcp__calc__get-sum", "mcp__fs__read_file", "web_fetch"].map(isUntrustedSource), [
      true,
      true,
      true,
    ]);
    assert.deepEqual(
      ["shell", "file", "subagent", "task", "report_progress", "ask_user", "tool_search", "web_fetcher", "mcp_x"].map(
        isUntrustedSource,
      ),
      [false, false, false, false, false, false, false, false, false],
    );
  });

  it("counts shell, file writes and edits and every MCP tool as state changes; reads and bookkeeping not", () => {
    assert.equal(changesState("shell", { cmd: "ls" }), true);
    assert.equal(changesState("mcp__calc__get-sum", {}), true, "an MCP tool's read-only hint is the server's own word");
    assert.deepEqual(
      ["read", "list", "search", "write", "edit", undefined].map((action) => changesState("file", { action })),
      [false, false, false, true, true, false],
    );
    assert.equal(changesState("file", null), false);
    for (const name of ["web_fetch", "subagent", "task", "report_progress", "ask_user", "tool_search"])
      assert.equal(changesState(name, {}), false, name);
  });
});

describe("untrusted input: a turn's memory", () => {
  it("asks for nothing until the turn reads untrusted output", () => {
    const untrusted = new UntrustedInput();
    untrusted.read("shell", "call_1");
    untrusted.read("file", "call_2");
    assert.equal(untrusted.source, undefined, "Parley's own tools' output is the project's, not a stranger's");
    assert.equal(untrusted.reasonFor("shell", { cmd: "curl x" }), undefined);
  });

  it("after an MCP result, names it as the reason of every later state change", () => {
    const untrusted = new UntrustedInput();
    untrusted.read("mcp__calc__get-sum", "call_1");
    const reason = { kind: "untrusted_input", source: { tool: "mcp__calc__get-sum", callId: "call_1" } };
    assert.deepEqual(untrusted.reasonFor("shell", { cmd: "curl x" }), reason);
    assert.deepEqual(untrusted.reasonFor("file", { action: "edit" }), reason);
    assert.deepEqual(untrusted.reasonFor("mcp__calc__get-sum", {}), reason, "a second MCP call asks too");
    assert.equal(untrusted.reasonFor("file", { action: "read" }), undefined, "reading on asks nothing");
    assert.equal(untrusted.reasonFor("web_fetch", { url: "https://example.com" }), undefined);
    assert.equal(untrusted.reasonFor("subagent", { agent: "a", task: "t" }), undefined);
  });

  it("keeps the first source: the one since which calls ask", () => {
    const untrusted = new UntrustedInput();
    untrusted.read("web_fetch", "call_1");
    untrusted.read("mcp__calc__get-sum", "call_2");
    assert.deepEqual(untrusted.source, { tool: "web_fetch", callId: "call_1" });
  });

  it("gives a copy of the source, which a caller cannot change", () => {
    const untrusted = new UntrustedInput();
    untrusted.read("web_fetch", "call_1");
    const reason = untrusted.reasonFor("shell", {});
    assert.ok(reason?.kind === "untrusted_input");
    reason.source.callId = "changed";
    assert.equal(untrusted.source?.callId, "call_1");
  });
});
