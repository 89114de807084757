// Direct runs in the UI: a subagent's own calls nested in its card (live and stored alike), and a
// refused run explained with the way out its status calls for.
import assert from "node:assert/strict";
import type { Message } from "../../../src/shared/chats";
import type { StreamEvent } from "../../../src/shared/stream-events";
import { ApiError } from "../../../webview/src/lib/api/client";
import { nestCards } from "../../../webview/src/lib/card-nesting";
import { directFailure, newCallId } from "../../../webview/src/lib/direct-runs";
import { emptyTurn, reduceTurn } from "../../../webview/src/lib/live-turn";
import { transcriptItems } from "../../../webview/src/lib/transcript";
import { messageFactory } from "../../helpers/stored-messages";

const message = messageFactory();

describe("direct runs in the UI", () => {
  it("nests a subagent's own calls inside its card in a live turn", () => {
    const events: StreamEvent[] = [
      { event: "turn.start", data: { turnId: "t1", messageId: "", model: "" } },
      { event: "tool.call", data: { callId: "sub", name: "subagent", arguments: { agent: "reviewer", task: "look" } } },
      { event: "tool.call", data: { callId: "in1", name: "shell", arguments: { cmd: "ls" }, parentCallId: "sub" } },
      { event: "tool.result", data: { callId: "in1", name: "shell", ok: true, output: "x", parentCallId: "sub" } },
      { event: "tool.result", data: { callId: "sub", name: "subagent", ok: true, output: "fine" } },
      { event: "text.delta", data: { text: "fine" } },
    ];
    const turn = events.reduce(reduceTurn, emptyTurn());
    const nested = nestCards(turn.parts, (p) => (p.kind === "tool" ? p.card : undefined));
    assert.deepEqual(
      nested.items.map((p) => p.key),
      ["tool-sub", "text-2"],
    );
    assert.deepEqual(
      nested.inner.get("sub")?.map((c) => [c.callId, c.status]),
      [["in1", "done"]],
    );
  });

  it("nests them the same way in the stored transcript, and leaves a call whose parent is absent where it is", () => {
    const messages = [
      message("assistant", "", {
        turnId: "t1",
        toolCalls: [{ id: "sub", name: "subagent", arguments: '{"agent":"reviewer","task":"look"}' }],
      }),
      message("tool", '{"exitCode":0,"output":"x"}', {
        turnId: "t1",
        callId: "in1",
        name: "shell",
        ok: true,
        arguments: { cmd: "ls" },
        parentCallId: "sub",
      }),
      message("tool", "fine", {
        turnId: "t1",
        callId: "sub",
        name: "subagent",
        ok: true,
        arguments: { agent: "reviewer", task: "look" },
      }),
      message("assistant", "fine", { turnId: "t1" }),
      message("tool", "lost", { callId: "orphan", name: "shell", ok: true, parentCallId: "gone" }),
    ];
    const nested = nestCards(transcriptItems(messages), (i) => (i.kind === "tool" ? i.card : undefined));
    assert.deepEqual(
      nested.items.map((i) => i.kind),
      ["tool", "assistant", "tool"],
    );
    assert.deepEqual(
      nested.inner.get("sub")?.map((c) => c.callId),
      ["in1"],
    );
  });

  it("gives each refusal its way out", () => {
    const agent = { kind: "agent" as const, agent: "nobody", task: "x" };
    const unknown = directFailure("@nobody x", agent, new ApiError(404, "not_found", 'no agent "nobody"'));
    assert.equal(unknown.toModel, true);
    assert.match(unknown.hint, /the agent "nobody"/);
    const off = directFailure(
      "@shell ls",
      { kind: "tool", tool: "shell", arguments: { cmd: "ls" } },
      new ApiError(403, "forbidden", "off"),
    );
    assert.equal(off.toModel, false);
    assert.equal(off.settings?.hash, "#/settings/project");
    const untrusted = directFailure(
      "@hello",
      { kind: "action", action: "hello" },
      new ApiError(403, "forbidden", "not trusted"),
    );
    assert.equal(untrusted.settings?.hash, "#/settings/project", "the trust control is on This project");
    assert.match(untrusted.settings?.label ?? "", /This project/);
    const bad = directFailure(
      "@mcp__a__b x=1",
      { kind: "tool", tool: "mcp__a__b", arguments: { x: 1 } },
      new ApiError(400, "invalid_request", "bad", [
        { message: "x must be a string" },
        { path: ["y"], message: "required" },
      ]),
    );
    assert.deepEqual(bad.issues, ["x must be a string", "y: required"]);
    assert.equal(bad.toModel, true);
    assert.match(directFailure("@shell ls", undefined, new ApiError(409, "conflict", "busy")).hint, /Stop/);
    assert.equal(directFailure("@shell ls", undefined, new TypeError("Failed to fetch")).status, undefined);
  });

  it("shows a call its turn's Stop cut short as stopped, not failed", () => {
    const messages = [
      message("assistant", "", {
        turnId: "t2",
        toolCalls: [{ id: "c1", name: "shell", arguments: '{"cmd":"echo never"}' }],
      }),
      message("tool", "the turn was cancelled", {
        turnId: "t2",
        callId: "c1",
        name: "shell",
        ok: false,
        arguments: { cmd: "echo never" },
      }),
    ];
    const [item] = transcriptItems(messages);
    assert.equal(item?.kind === "tool" && item.card.status, "stopped");
  });

  it("makes call ids the dispatch route accepts", () => {
    const id = newCallId();
    assert.match(id, /^[\w-]{1,100}$/);
    assert.notEqual(id, newCallId());
  });
});
