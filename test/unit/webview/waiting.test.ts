// What the running turn shows pinned above the composer (issue 37, items 2, 4 and 5): the call
// waiting for the user with its announcement, keys and focus rule; the working line; tool names as
// people read them; the plan; and which cards open by default.
import assert from "node:assert/strict";
import type { StreamEvent } from "../../../src/shared/stream-events";
import { isDirectCall, newCallId } from "../../../webview/src/lib/direct-runs";
import {
  callsAwaitResults,
  currentStep,
  emptyTurn,
  reduceTurn,
  waitingCards,
  type LiveTurn,
} from "../../../webview/src/lib/live-turn";
import {
  cardName,
  opensByDefault,
  taskItems,
  taskProgress,
  type ToolCardData,
} from "../../../webview/src/lib/tool-cards";
import { mcpToolParts, serverNames, toolTitle } from "../../../webview/src/lib/tool-titles";
import { approvalKey, takesFocus, waitingAnnouncement, type KeyPress } from "../../../webview/src/lib/waiting";
import { messageFactory } from "../../helpers/stored-messages";

const fold = (events: StreamEvent[], from: LiveTurn = emptyTurn()): LiveTurn => events.reduce(reduceTurn, from);
const start: StreamEvent = { event: "turn.start", data: { turnId: "t1", messageId: "m", model: "fake/tools" } };
const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  repeat: false,
  shiftKey: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  isComposing: false,
  ...more,
});

describe("waiting for you", () => {
  it("lists the calls that wait, and announces an approval with the tool and its subject", () => {
    const turn = fold([
      start,
      { event: "tool.call", data: { callId: "c1", name: "shell", arguments: { cmd: "rm -rf src" } } },
      { event: "tool.approval", data: { callId: "c1", name: "shell", arguments: { cmd: "rm -rf src" } } },
    ]);
    const [card] = waitingCards(turn);
    assert.equal(card?.callId, "c1");
    assert.equal(waitingAnnouncement(card!), "Parley is waiting for you: allow shell on rm -rf src?");
    const mcp: ToolCardData = {
      callId: "c2",
      name: "mcp__calc__sum",
      args: {},
      status: "waiting",
      ask: { kind: "approval" },
    };
    assert.equal(
      waitingAnnouncement(mcp, serverNames([{ id: "calc", name: "Calculator" }])),
      "Parley is waiting for you: allow Calculator › sum?",
    );
    const asked = fold([
      start,
      { event: "tool.question", data: { callId: "q", question: "Which colour?", choices: ["red"] } },
    ]);
    assert.equal(waitingAnnouncement(waitingCards(asked)[0]!), "Parley is waiting for you: Which colour?");
    assert.deepEqual(
      waitingCards(fold([{ event: "tool.result", data: { callId: "c1", name: "shell", ok: true, output: "" } }], turn)),
      [],
    );
  });

  it("answers with Enter and Escape from the region, leaves buttons and text fields their own keys", () => {
    assert.equal(approvalKey(press("Enter"), "region"), "allow");
    assert.equal(approvalKey(press("Enter"), "checkbox"), "allow", "tick Always allow, then Enter");
    assert.equal(approvalKey(press("Escape"), "region"), "deny");
    assert.equal(approvalKey(press("Escape"), "control"), "deny");
    assert.equal(approvalKey(press("Enter"), "control"), undefined, "Enter on Deny is Deny's");
    assert.equal(approvalKey(press("Enter"), "text"), undefined);
    assert.equal(approvalKey(press("Escape"), "text"), undefined);
    assert.equal(approvalKey(press("Enter", { repeat: true }), "region"), undefined, "a held-down Enter never allows");
    assert.equal(approvalKey(press("Enter", { shiftKey: true }), "region"), undefined);
    assert.equal(approvalKey(press("Enter", { isComposing: true }), "region"), undefined);
    assert.equal(approvalKey(press("a"), "region"), undefined);
  });

  it("takes the focus unless the user is typing", () => {
    assert.equal(takesFocus({ kind: "none" }), true);
    assert.equal(takesFocus({ kind: "other" }), true);
    assert.equal(takesFocus({ kind: "text", empty: true }), true, "the composer just sent its message");
    assert.equal(takesFocus({ kind: "text", empty: false }), false, "a message being written keeps the focus");
    assert.equal(takesFocus({ kind: "inside" }), false);
  });
});

describe("a turn to follow after a reload", () => {
  it("finds a last step whose calls are not all answered (one runs or waits), and none once they are", () => {
    const message = messageFactory();
    const calls = [
      { id: "c1", name: "shell", arguments: "{}" },
      { id: "c2", name: "shell", arguments: "{}" },
    ];
    const user = message("user", "go");
    const step = message("assistant", "", { toolCalls: calls, finishReason: "tool_calls" });
    const first = message("tool", "ok", { callId: "c1", name: "shell", ok: true });
    const second = message("tool", "ok", { callId: "c2", name: "shell", ok: true });
    const answer = message("assistant", "done");
    assert.equal(callsAwaitResults([user, step]), true, "waiting for its first call");
    assert.equal(callsAwaitResults([user, step, first]), true, "the second call waits");
    assert.equal(callsAwaitResults([user, step, first, second]), false, "the model is asked next");
    assert.equal(callsAwaitResults([user, step, first, second, answer]), false);
    assert.equal(callsAwaitResults([user]), false);
    assert.equal(callsAwaitResults([]), false);
  });
});

describe("the working line", () => {
  it("names the current step: starting, the model, thinking, writing, a call, waiting for the user", () => {
    assert.equal(currentStep(emptyTurn()), "Starting…");
    let turn = fold([start]);
    assert.equal(currentStep(turn), "Waiting for the model…");
    turn = fold([{ event: "reasoning.delta", data: { text: "hmm" } }], turn);
    assert.equal(currentStep(turn), "Thinking…");
    turn = fold([{ event: "text.delta", data: { text: "Running it." } }], turn);
    assert.equal(currentStep(turn), "Writing…");
    turn = fold([{ event: "tool.call", data: { callId: "c1", name: "shell", arguments: { cmd: "npm test" } } }], turn);
    assert.equal(currentStep(turn), "Running shell: npm test");
    turn = fold(
      [{ event: "tool.approval", data: { callId: "c1", name: "shell", arguments: { cmd: "npm test" } } }],
      turn,
    );
    assert.equal(currentStep(turn), "Waiting for you to allow shell…");
    turn = fold([{ event: "tool.result", data: { callId: "c1", name: "shell", ok: true, output: "" } }], turn);
    assert.equal(currentStep(turn), "Waiting for the model…", "the result goes back to the model");
    turn = fold(
      [{ event: "usage", data: {} as never }],
      fold([{ event: "reasoning.delta", data: { text: "…" } }], turn),
    );
    assert.equal(currentStep(turn), "Thinking…", "usage and context events leave the thinking on");
  });

  it("names a subagent's own running call rather than the subagent, with MCP tools by their title", () => {
    const turn = fold([
      start,
      { event: "tool.call", data: { callId: "s", name: "subagent", arguments: { agent: "r", task: "look" } } },
      {
        event: "tool.call",
        data: { callId: "i", name: "mcp__calc__sum", arguments: { a: 1, b: 2 }, parentCallId: "s" },
      },
    ]);
    assert.equal(currentStep(turn), 'Running calc › sum: {"a":1,"b":2}');
  });
});

describe("tool names as people read them", () => {
  it("shows an MCP id as server › tool, with the server's display name when settings give one", () => {
    assert.equal(toolTitle("mcp__calc__sum"), "calc › sum");
    assert.equal(toolTitle("mcp__calc__get__sum"), "calc › get__sum", "the tool's own name may hold __");
    assert.equal(toolTitle("mcp__calc__sum", serverNames([{ id: "calc", name: " Calc " }, { id: "x" }])), "Calc › sum");
    assert.equal(toolTitle("shell"), "shell");
    assert.equal(toolTitle("mcp__Bad__x"), "mcp__Bad__x", "not an MCP id: as it is");
    assert.deepEqual(mcpToolParts("mcp__calc__sum"), { serverId: "calc", tool: "sum" });
    assert.equal(cardName("mcp__calc__sum", {}), "calc › sum");
    assert.equal(cardName("file", { path: "a.txt" }), "file a.txt");
  });

  it("reads a plan from a task call and counts what is done", () => {
    const items = taskItems({
      items: [
        { title: "write", status: "done" },
        { title: "test", status: "in_progress" },
        { title: "odd", status: "later" },
        "junk",
      ],
    });
    assert.deepEqual(items, [
      { title: "write", status: "done" },
      { title: "test", status: "in_progress" },
    ]);
    assert.equal(taskProgress(items), "1 of 2 done");
    assert.deepEqual(taskItems("not an object"), []);
  });

  it("opens a failed card and a direct run's result by default, nothing else", () => {
    const card = (status: ToolCardData["status"], output?: unknown): ToolCardData => ({
      callId: "c",
      name: "shell",
      args: {},
      status,
      ...(output !== undefined ? { output } : {}),
    });
    assert.equal(opensByDefault(card("failed", "boom"), false), true);
    assert.equal(opensByDefault(card("done", "ok"), false), false);
    assert.equal(opensByDefault(card("done", "ok"), true), true);
    assert.equal(opensByDefault(card("running"), true), false, "nothing to show before the result");
    assert.equal(opensByDefault(card("denied", "The user denied this call."), false), false);
    assert.equal(isDirectCall(newCallId()), true);
    assert.equal(isDirectCall("call_abc"), false);
  });
});
