// Tool cards as the chat shows them: names, summaries, statuses and diffs; the same cards from a
// live turn's events and from the stored transcript after a reload.
import assert from "node:assert/strict";
import type { Message } from "../../../src/shared/chats";
import type { StreamEvent } from "../../../src/shared/stream-events";
import { answered, answerFailed, emptyTurn, reduceTurn, type LiveTurn } from "../../../webview/src/lib/live-turn";
import {
  argumentSummary,
  cardName,
  diffLines,
  diffStat,
  outputText,
  storedOutput,
} from "../../../webview/src/lib/tool-cards";
import { transcriptItems } from "../../../webview/src/lib/transcript";
import { messageFactory } from "../../helpers/stored-messages";

const DIFF =
  "===================================================================\n--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n keep\n-alpha beta\n+alpha gamma\n--- sql comment\n";

const message = messageFactory();

describe("tool cards", () => {
  it("names a card by its tool and subject, and sums up its arguments on one line", () => {
    assert.equal(cardName("shell", { cmd: "ls" }), "shell");
    assert.equal(cardName("file", { action: "edit", path: "notes.txt" }), "file notes.txt");
    assert.equal(cardName("subagent", { agent: "reviewer", task: "look" }), "subagent reviewer");
    assert.equal(argumentSummary("shell", { cmd: "echo hi" }), "echo hi");
    assert.equal(argumentSummary("file", { action: "search", pattern: "TODO" }), "search TODO");
    assert.equal(
      argumentSummary("task", {
        items: [
          { title: "a", status: "done" },
          { title: "b", status: "pending" },
        ],
      }),
      "1 of 2 done",
    );
    assert.equal(argumentSummary("mcp__gh__issue", { n: 1 }), '{"n":1}');
  });

  it("shows a shell result as its text with the exit code, other objects as JSON", () => {
    assert.equal(
      outputText("shell", { exitCode: 0, output: "hi\n", truncated: false, timedOut: false }),
      "hi\n[exit code 0]",
    );
    assert.equal(
      outputText("shell", { exitCode: 137, output: "x", truncated: true, timedOut: true }),
      "x\n[exit code 137, timed out, output cut in the middle]",
    );
    assert.equal(
      outputText("file", { path: "a", bytesBefore: 1, bytesAfter: 2 }),
      '{\n  "path": "a",\n  "bytesBefore": 1,\n  "bytesAfter": 2\n}',
    );
    assert.deepEqual(storedOutput("shell", '{"exitCode":0,"output":"x"}'), { exitCode: 0, output: "x" });
    assert.equal(
      storedOutput("ask_user", '{"looks":"like json"}'),
      '{"looks":"like json"}',
      "a text answer stays text",
    );
  });

  it("names a web_fetch card by the host, and shows its page after where it came from", () => {
    const args = { url: "https://example.com/docs/a?b=c" };
    assert.equal(cardName("web_fetch", args), "web_fetch example.com");
    assert.equal(cardName("web_fetch", { url: "not a url" }), "web_fetch not a url");
    assert.equal(argumentSummary("web_fetch", args), "https://example.com/docs/a?b=c");
    const result = {
      url: "https://example.com/docs/b",
      status: 200,
      contentType: "text/html",
      bytes: 10,
      truncated: true,
      content: "# B",
    };
    assert.equal(outputText("web_fetch", result), "[200 text/html from https://example.com/docs/b, cut]\n\n# B");
    assert.deepEqual(storedOutput("web_fetch", JSON.stringify(result)), result, "read back after a reload");
    assert.equal(storedOutput("web_fetch", "web_fetch refused …"), "web_fetch refused …", "a failure stays text");
  });

  it("types diff lines, keeping the signs, and counts them; --- inside a hunk is a removal", () => {
    const lines = diffLines(DIFF);
    assert.deepEqual(
      lines.map((l) => l.kind),
      ["file", "file", "hunk", "context", "del", "add", "del"],
    );
    assert.equal(lines[5]!.text, "+alpha gamma");
    assert.deepEqual(diffStat(DIFF), { added: 1, removed: 2 });
  });
});

describe("live turn", () => {
  const fold = (events: StreamEvent[]): LiveTurn => events.reduce(reduceTurn, emptyTurn());

  it("keeps text and cards in the order they came, and follows a call through approval to its result", () => {
    let turn = fold([
      { event: "turn.start", data: { turnId: "t1", messageId: "m", model: "fake/tools" } },
      { event: "text.delta", data: { text: "Running " } },
      { event: "text.delta", data: { text: "it." } },
      { event: "tool.call", data: { callId: "c1", name: "shell", arguments: { cmd: "ls" } } },
      { event: "tool.approval", data: { callId: "c1", name: "shell", arguments: { cmd: "ls" } } },
    ]);
    assert.deepEqual(
      turn.parts.map((p) => p.kind),
      ["text", "tool"],
    );
    const card = () => (turn.parts[1] as Extract<LiveTurn["parts"][number], { kind: "tool" }>).card;
    assert.equal((turn.parts[0] as { text: string }).text, "Running it.");
    assert.deepEqual([card().status, card().ask, card().turnId], ["waiting", { kind: "approval" }, "t1"]);
    turn = answerFailed(turn, "c1", "gone");
    assert.equal(card().askError, "gone");
    turn = answered(turn, "c1");
    assert.deepEqual([card().status, card().ask, card().askError], ["running", undefined, undefined]);
    turn = reduceTurn(turn, {
      event: "tool.result",
      data: { callId: "c1", name: "shell", ok: false, output: "The user denied this call." },
    });
    assert.equal(card().status, "denied");
    turn = reduceTurn(turn, { event: "text.delta", data: { text: "Tool said" } });
    assert.deepEqual(
      turn.parts.map((p) => p.kind),
      ["text", "tool", "text"],
    );
  });

  it("shows a question, the task list and the progress line", () => {
    const turn = fold([
      { event: "turn.start", data: { turnId: "t1", messageId: "m", model: "x" } },
      {
        event: "tool.call",
        data: { callId: "q", name: "ask_user", arguments: { question: "Go?", choices: ["yes", "no"] } },
      },
      { event: "tool.question", data: { callId: "q", question: "Go?", choices: ["yes", "no"] } },
      { event: "task.update", data: { items: [{ title: "a", status: "in_progress" }] } },
      { event: "progress", data: { message: "working on a" } },
    ]);
    const part = turn.parts[0] as Extract<LiveTurn["parts"][number], { kind: "tool" }>;
    assert.deepEqual(part.card.ask, { kind: "question", question: "Go?", choices: ["yes", "no"] });
    assert.deepEqual(turn.tasks, [{ title: "a", status: "in_progress" }]);
    assert.equal(turn.progress, "working on a");
  });
});

describe("notices", () => {
  it("keeps a turn's notice beside its text while it streams", () => {
    const turn = [
      { event: "turn.start", data: { turnId: "t1", messageId: "m", model: "gemma" } },
      { event: "notice", data: { code: "tools_unsupported", message: "gemma cannot use tools" } },
      { event: "text.delta", data: { text: "hi" } },
    ].reduce((t, e) => reduceTurn(t, e as StreamEvent), emptyTurn());
    assert.equal(turn.notice, "gemma cannot use tools");
    assert.equal(turn.parts.length, 1);
  });

  it("shows a stored step that carries a notice, even with nothing else to show", () => {
    const items = transcriptItems([
      message("user", "hi"),
      message("assistant", "", {
        turnId: "t1",
        notice: "gemma cannot use tools",
        toolCalls: [{ id: "n1", name: "task", arguments: "{}" }],
      }),
    ]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ["user", "assistant", "tool"],
    );
  });
});

describe("transcript items", () => {
  it("pairs each call with its result, marks a call without one interrupted, and ends a turn that changed files with Revert", () => {
    const messages = [
      message("user", "edit: notes.txt beta => gamma"),
      message("assistant", "Editing. ", {
        turnId: "t1",
        toolCalls: [{ id: "c1", name: "file", arguments: '{"action":"edit","path":"notes.txt"}' }],
      }),
      message("tool", '{"path":"notes.txt","bytesBefore":11,"bytesAfter":12}', {
        turnId: "t1",
        callId: "c1",
        name: "file",
        ok: true,
        arguments: { action: "edit", path: "notes.txt" },
        diff: DIFF,
      }),
      message("assistant", "Tool said: ok", { turnId: "t1" }),
      message("user", "shell: sleep 100"),
      message(
        "assistant",
        "",
        { turnId: "t2", toolCalls: [{ id: "c2", name: "shell", arguments: '{"cmd":"sleep 100"}' }] },
        "cancelled",
      ),
    ];
    const items = transcriptItems(messages);
    assert.deepEqual(
      items.map((i) => i.kind),
      ["user", "assistant", "tool", "assistant", "revert", "user", "assistant", "tool"],
    );
    const edit = items[2] as Extract<(typeof items)[number], { kind: "tool" }>;
    assert.deepEqual([edit.card.status, edit.card.diff, edit.card.turnId], ["done", DIFF, "t1"]);
    assert.deepEqual(items[4], {
      kind: "revert",
      key: "revert-t1",
      turnId: "t1",
      paths: ["notes.txt"],
      reverted: false,
    });
    const interrupted = items[7] as Extract<(typeof items)[number], { kind: "tool" }>;
    assert.deepEqual([interrupted.card.status, interrupted.card.args], ["interrupted", { cmd: "sleep 100" }]);
  });

  it("leaves out an assistant step that only called tools, and shows a denied call as denied", () => {
    const items = transcriptItems([
      message("user", "shell: rm -rf x"),
      message("assistant", "", {
        turnId: "t1",
        toolCalls: [{ id: "c1", name: "shell", arguments: '{"cmd":"rm -rf x"}' }],
      }),
      message("tool", "The user denied this call.", {
        turnId: "t1",
        callId: "c1",
        name: "shell",
        ok: false,
        arguments: { cmd: "rm -rf x" },
      }),
    ]);
    assert.deepEqual(
      items.map((i) => i.kind),
      ["user", "tool"],
    );
    assert.equal((items[1] as Extract<(typeof items)[number], { kind: "tool" }>).card.status, "denied");
  });
});

describe("open diff (VS Code)", () => {
  it("is a webview-to-host message naming the chat, the turn and the file", async () => {
    const { webviewToHostSchema } = await import("../../../src/shared/host-messages");
    assert.ok(
      webviewToHostSchema.safeParse({ type: "openDiff", chatId: "c", turnId: "t_1", path: "src/a.ts" }).success,
    );
    assert.equal(webviewToHostSchema.safeParse({ type: "openDiff", chatId: "c", turnId: "t_1" }).success, false);
  });
});
