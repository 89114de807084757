import assert from "node:assert/strict";
import { gatesOf, needsApproval, toolGate, untrustedGates } from "../../../src/tools/gate";

describe("tool gates of an untrusted project", () => {
  it("lets the project tighten the user's gates at once and never loosen them", () => {
    const user = { file: "allow" as const, mcp__calc__sum: "off" as const };
    const gates = untrustedGates(user, {
      shell: "allow",
      file: "ask",
      task: "off",
      mcp__calc__sum: "allow",
      report_progress: "allow",
    });
    assert.equal(toolGate("shell", gates), "ask", "allow counts as the user's gate (shell defaults to ask)");
    assert.equal(toolGate("file", gates), "ask", "ask tightens the user's allow");
    assert.equal(toolGate("task", gates), "off");
    assert.equal(toolGate("mcp__calc__sum", gates), "off", "the user's off stays off");
    assert.equal(toolGate("report_progress", gates), "allow", "allow where the user allows already changes nothing");
    assert.equal(toolGate("mcp__other__x", gates), "ask");
  });

  it("keeps a tool named __proto__ a plain key", () => {
    const gates = untrustedGates({}, JSON.parse('{"__proto__":"off"}'));
    assert.equal(toolGate("__proto__", gates), "off");
    assert.equal(Object.getPrototypeOf(gates), Object.prototype);
  });
});

describe("tool gates", () => {
  it("takes a tool's gate from the settings, else its default: native tools their own, MCP tools ask", () => {
    assert.deepEqual(
      ["shell", "file", "subagent", "task", "mcp__calc__add"].map((name) => toolGate(name, undefined)),
      ["ask", "ask", "allow", "allow", "ask"],
    );
    assert.deepEqual(
      ["shell", "task", "mcp__calc__add"].map((name) =>
        toolGate(name, { shell: "allow", task: "off", mcp__calc__add: "allow" }),
      ),
      ["allow", "off", "allow"],
    );
    assert.equal(toolGate("toString", {}), "ask", "an inherited name is no setting");
  });

  it("reads toolGates over the older tools key", () => {
    assert.deepEqual(gatesOf({ tools: { shell: "off", file: "allow" }, toolGates: { shell: "ask" } }), {
      shell: "ask",
      file: "allow",
    });
    assert.deepEqual(gatesOf({}), {});
  });

  it("asks the user only under ask, and for file only when it writes or edits", () => {
    assert.equal(needsApproval("shell", "ask", { cmd: "ls" }), true);
    assert.equal(needsApproval("shell", "allow", { cmd: "ls" }), false);
    assert.equal(needsApproval("mcp__calc__add", "ask", {}), true);
    assert.deepEqual(
      ["read", "list", "search", "write", "edit"].map((action) => needsApproval("file", "ask", { action })),
      [false, false, false, true, true],
    );
    assert.equal(needsApproval("file", "allow", { action: "write" }), false);
    assert.equal(needsApproval("file", "ask", undefined), false);
  });
});
