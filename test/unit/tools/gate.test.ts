import assert from "node:assert/strict";
import { toolGate, untrustedGates } from "../../../src/tools/gate";

describe("tool gates of an untrusted project", () => {
  it("lets the project tighten the user's gates at once and never loosen them", () => {
    const user = { file: "allow" as const, mcp__calc__sum: "off" as const };
    const gates = untrustedGates(user, { shell: "allow", file: "ask", task: "off", mcp__calc__sum: "allow", report_progress: "allow" });
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
