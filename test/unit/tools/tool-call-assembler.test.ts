import assert from "node:assert/strict";
import { ToolCallAssembler } from "../../../src/tools/tool-call-assembler";

describe("streamed tool calls put together", () => {
  it("joins each call's argument pieces and keeps interleaved calls apart by index", () => {
    const calls = new ToolCallAssembler();
    calls.add({ index: 0, id: "call_a", name: "shell", argumentsDelta: "" });
    calls.add({ index: 1, id: "call_b", name: "file", argumentsDelta: '{"action":' });
    calls.add({ index: 0, argumentsDelta: '{"cmd":' });
    calls.add({ index: 1, argumentsDelta: '"read"}' });
    calls.add({ index: 0, argumentsDelta: '"ls"}' });
    assert.equal(calls.size, 2);
    assert.deepEqual(calls.finish("call_t1"), [
      { id: "call_a", name: "shell", arguments: '{"cmd":"ls"}' },
      { id: "call_b", name: "file", arguments: '{"action":"read"}' },
    ]);
  });

  it("gives the calls in index order, whatever order they began in", () => {
    const calls = new ToolCallAssembler();
    calls.add({ index: 2, id: "c2", name: "task", argumentsDelta: "{}" });
    calls.add({ index: 0, id: "c0", name: "shell", argumentsDelta: "{}" });
    calls.add({ index: 1, id: "c1", name: "file", argumentsDelta: "{}" });
    assert.deepEqual(
      calls.finish("x").map((c) => c.id),
      ["c0", "c1", "c2"],
    );
  });

  it("does not double a name a server repeats on every delta, and joins one sent in pieces", () => {
    const repeated = new ToolCallAssembler();
    for (const piece of ['{"a"', ":1}"])
      repeated.add({ index: 0, id: "c", name: "report_progress", argumentsDelta: piece });
    assert.deepEqual(repeated.finish("x"), [{ id: "c", name: "report_progress", arguments: '{"a":1}' }]);
    const pieces = new ToolCallAssembler();
    pieces.add({ index: 0, id: "c", name: "mcp__calc", argumentsDelta: "" });
    pieces.add({ index: 0, name: "__add", argumentsDelta: "{}" });
    assert.equal(pieces.finish("x")[0]!.name, "mcp__calc__add");
  });

  it("names a call the server sent without an id after the turn and its index, and keeps a later id", () => {
    const calls = new ToolCallAssembler();
    calls.add({ index: 0, name: "shell", argumentsDelta: "{}" });
    calls.add({ index: 3, name: "file", argumentsDelta: "" });
    calls.add({ index: 3, id: "late_id", argumentsDelta: "{}" });
    assert.deepEqual(
      calls.finish("call_turn7").map((c) => c.id),
      ["call_turn7_0", "late_id"],
    );
  });

  it("has nothing to give before any delta", () => {
    const calls = new ToolCallAssembler();
    assert.equal(calls.size, 0);
    assert.deepEqual(calls.finish("x"), []);
  });
});
