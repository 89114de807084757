// A chat as a file: the JSON document, the markdown written from it, and the file's name.
import assert from "node:assert/strict";
import type { Chat } from "../../../src/shared/chats";
import { chatExportSchema } from "../../../src/shared/chat-export";
import { chatExportDocument } from "../../../src/chat/export/export-document";
import { chatMarkdown } from "../../../src/chat/export/export-markdown";
import { exportFileName } from "../../../src/chat/export/export-file";
import { fenced, inlineCode } from "../../../src/chat/export/markdown-blocks";
import { messageFactory } from "../../helpers/stored-messages";

const chat = {
  id: "c_1",
  projectId: "p_1",
  title: "Fix the parser",
  promptId: null,
  cardPromptId: null,
  modelId: "fake/echo",
  agent: null,
  tools: null,
  agentFiles: null,
  skills: null,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:05:00Z",
} as Chat;
const AT = "2025-02-03T04:05:06.000Z";

/** A turn: a question, a step that runs `shell`, its result, and the answer. */
function turn() {
  const message = messageFactory();
  return [
    message("user", "Run the tests"),
    message("assistant", "Running them.", {
      turnId: "t1",
      toolCalls: [{ id: "call_1", name: "shell", arguments: '{"cmd":"npm test"}' }],
    }),
    message("tool", '{"exitCode":0,"output":"12 passing"}', {
      turnId: "t1",
      callId: "call_1",
      name: "shell",
      ok: true,
      arguments: { cmd: "npm test" },
    }),
    message("assistant", "All **12** pass.", { turnId: "t1", finishReason: "stop" }),
  ];
}

describe("chat export", () => {
  it("JSON: the chat's settings and each message with its tool calls and results, valid against its schema", () => {
    const document = chatExportDocument(chat, turn(), AT);
    assert.deepEqual(chatExportSchema.parse(document), document);
    assert.equal(document.chat.title, "Fix the parser");
    assert.equal(document.exportedAt, AT);
    assert.deepEqual(
      document.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(document.messages[1]!.toolCalls, [
      { id: "call_1", name: "shell", arguments: '{"cmd":"npm test"}' },
    ]);
    assert.deepEqual(document.messages[2]!.toolResult, {
      callId: "call_1",
      name: "shell",
      ok: true,
      arguments: { cmd: "npm test" },
    });
    assert.equal(document.messages[0]!.toolCalls, undefined, "only where they apply");
  });

  it("markdown: a heading per turn, the call with its arguments, its result folded under it", () => {
    const markdown = chatMarkdown(chatExportDocument(chat, turn(), AT));
    assert.match(markdown, /^# Fix the parser\n/);
    assert.equal(markdown.match(/^## You$/gm)?.length, 1);
    assert.equal(markdown.match(/^## Assistant$/gm)?.length, 1, "the answer's steps stay under one heading");
    assert.ok(markdown.includes('**Tool call** `shell`\n\n```json\n{\n  "cmd": "npm test"\n}\n```'), markdown);
    assert.ok(markdown.includes("<details>\n<summary>Result of shell (ok)</summary>"), markdown);
    assert.ok(markdown.includes('"output": "12 passing"'));
    assert.ok(markdown.indexOf("Result of shell") < markdown.indexOf("All **12** pass."), "result before the answer");
    assert.equal(markdown.match(/12 passing/g)?.length, 1, "the result once, under its call");
  });

  it("markdown: fences longer than any backtick run in what they hold", () => {
    const message = messageFactory();
    const output = "before\n```\ninner fence\n````\nafter";
    const markdown = chatMarkdown(
      chatExportDocument(
        chat,
        [
          message("user", "x"),
          message("assistant", "", { toolCalls: [{ id: "k", name: "file", arguments: "not json ``` here" }] }),
          message("tool", output, { callId: "k", name: "file", ok: false }),
        ],
        AT,
      ),
    );
    assert.ok(markdown.includes(`\`\`\`\`\`\n${output}\n\`\`\`\`\``), markdown);
    assert.ok(markdown.includes("````\nnot json ``` here\n````"), "malformed arguments shown as sent");
    assert.ok(markdown.includes("Result of file (failed)"));
  });

  it("markdown: a direct run's result without its call, attachments, errors, stops and compactions", () => {
    const message = messageFactory();
    const markdown = chatMarkdown(
      chatExportDocument(
        chat,
        [
          message("user", "# README\ntext", { kind: "file", path: "README.md" }),
          message("tool", "hi\n", { callId: "d1", name: "shell", ok: true, arguments: { cmd: "echo hi" } }),
          message("compaction", "They talked about the parser."),
          message("user", "go on"),
          message("assistant", "Half an ans", { error: { message: "upstream failed", retryable: true } }, "error"),
          message("assistant", "Stopped here", null, "cancelled"),
        ],
        AT,
      ),
    );
    assert.ok(markdown.includes("<summary>Attached file README.md</summary>"), markdown);
    assert.ok(markdown.includes('**Tool** `shell`\n\n```json\n{\n  "cmd": "echo hi"\n}\n```'), markdown);
    assert.ok(markdown.includes("## Context compacted"));
    assert.ok(markdown.includes("<summary>Summary of the earlier messages</summary>"));
    assert.ok(markdown.includes("> **Error:** upstream failed"));
    assert.ok(markdown.includes("_(stopped)_"));
    assert.equal(markdown.match(/^## You$/gm)?.length, 2);
  });

  it("markdown: HTML in a tool's name is text in its summary", () => {
    const message = messageFactory();
    const markdown = chatMarkdown(
      chatExportDocument(chat, [message("tool", "x", { callId: "a", name: "<img src=x>", ok: true })], AT),
    );
    assert.ok(markdown.includes("<summary>Result of &lt;img src=x&gt; (ok)</summary>"), markdown);
  });

  it("fenced and inlineCode hold any text", () => {
    assert.equal(fenced("a"), "```\na\n```");
    assert.equal(fenced("``` x ````"), "`````\n``` x ````\n`````");
    assert.equal(fenced("", "json"), "```json\n```");
    assert.equal(inlineCode("a`b"), "``a`b``");
    assert.equal(inlineCode("`a"), "`` `a ``");
  });

  it("names the file after the title, safely", () => {
    assert.equal(exportFileName("Fix the parser", "markdown"), "Fix the parser.md");
    assert.equal(exportFileName('a/b\\c:d*e?f"g<h>i|j', "json"), "a b c d e f g h i j.json");
    assert.equal(exportFileName("..hidden", "markdown"), "hidden.md");
    assert.equal(exportFileName("line\nbreak\u0000", "markdown"), "line break.md");
    assert.equal(exportFileName("  ///  ", "json"), "chat.json");
    assert.equal(exportFileName("Ünïcødé 🙂 plan", "markdown"), "Ünïcødé 🙂 plan.md");
    const long = exportFileName(`${"🙂".repeat(79)}ab`, "markdown");
    assert.equal([...long].length, 80 + ".md".length, "80 characters, whole emoji");
  });
});
