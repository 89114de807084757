import assert from "node:assert/strict";
import { SUMMARY_OUTPUT_CHARS, summaryRequest } from "../../../../src/chat/compaction/summary-request";

describe("summary request", () => {
  const rows = [
    { role: "user" as const, content: "Fix the login bug", status: "complete" as const },
    {
      role: "assistant" as const,
      content: "Reading it.",
      status: "complete" as const,
      meta: { toolCalls: [{ id: "c1", name: "file", arguments: '{"path":"login.ts"}' }] },
    },
    {
      role: "tool" as const,
      content: `needle: the token lives 30 days\n${"x".repeat(20_000)}`,
      status: "complete" as const,
      meta: { callId: "c1", name: "file" },
    },
  ];

  it("asks for a handoff: task, decisions, files, facts, what is left", () => {
    const [system] = summaryRequest(rows, undefined, 100_000);
    for (const section of ["## Task", "## Decisions", "## Files", "## Facts to keep", "## Done and left"])
      assert.ok(String(system!.content).includes(section), section);
  });

  it("gives the conversation as text with the calls, each output clipped, and extends a previous summary", () => {
    const [, user] = summaryRequest(rows, "Earlier: the app uses JWT.", 100_000);
    const content = String(user!.content);
    assert.match(content, /^# Previous summary\n\nEarlier: the app uses JWT\./);
    assert.match(content, /### User\nFix the login bug/);
    assert.match(content, /- called file \{"path":"login\.ts"\}/);
    assert.match(content, /### Output of file\nneedle: the token lives 30 days/);
    assert.match(content, /characters left out/);
    assert.ok(content.length < SUMMARY_OUTPUT_CHARS + 1_000);
  });

  it("bounds the whole conversation by the summariser's window", () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...rows[2]!, content: `out ${i} ${"y".repeat(300)}` }));
    const [, user] = summaryRequest(many, undefined, 20_000);
    assert.ok(String(user!.content).length < 21_000);
    assert.match(String(user!.content), /out 0 /, "the start is kept");
    assert.match(String(user!.content), /out 199 /, "and the end");
  });
});
