import assert from "node:assert/strict";
import fc from "fast-check";
import {
  buildRequest,
  prunedStub,
  SUMMARY_HEADER,
  type RequestRow,
} from "../../../../src/chat/context/request-messages";
import type { CompactionMeta } from "../../../../src/shared/compaction";

let seq = 0;
const row = (r: Omit<RequestRow, "status" | "id" | "seq">): RequestRow => {
  seq++;
  return { id: `m${seq}`, seq, status: "complete", ...r };
};
const user = (content: string) => row({ role: "user", content });
const answer = (content: string) => row({ role: "assistant", content });
const step = (callId: string, name = "file") =>
  row({ role: "assistant", content: "", meta: { toolCalls: [{ id: callId, name, arguments: "{}" }] } });
const output = (callId: string, content: string, name = "file") =>
  row({ role: "tool", content, meta: { callId, name } });
const compaction = (content: string, meta: Partial<CompactionMeta>) =>
  row({
    role: "compaction",
    content,
    meta: { reason: "auto", tokensBefore: 10, tokensAfter: 5, prunedOutputs: 0, pruned: [], ...meta },
  });

const system = { messages: [{ role: "system" as const, content: "prompt" }], layers: ["system" as const] };
const texts = (rows: RequestRow[]) => buildRequest(system, rows).messages.map((m) => `${m.role}:${String(m.content)}`);

describe("request messages with compactions", () => {
  beforeEach(() => (seq = 0));

  it("sends the transcript as it is without a compaction", () => {
    const rows = [user("go"), step("c1"), output("c1", "data"), answer("done")];
    const built = buildRequest(system, rows);
    assert.deepEqual(
      built.messages.map((m) => m.role),
      ["system", "user", "assistant", "tool", "assistant"],
    );
    assert.deepEqual(built.layers, ["system", "history", "history", "toolOutputs", "history"]);
    assert.equal(built.sources[3]!.id, "m3");
  });

  it("stubs the outputs a compaction pruned, and nothing else", () => {
    const rows = [user("go"), step("c1"), output("c1", "big one"), step("c2"), output("c2", "recent")];
    rows.push(compaction("", { pruned: ["c1"], prunedOutputs: 1 }));
    const built = buildRequest(system, rows);
    assert.equal(built.messages[3]!.content, prunedStub("file"));
    assert.equal(built.messages[5]!.content, "recent");
    assert.equal(built.sources[3]!.content, "big one", "the source keeps the stored text");
  });

  it("puts the latest summary after the first user message, in place of what it covers", () => {
    const rows = [user("needle: the task"), step("c1"), output("c1", "x"), answer("a"), user("second")];
    rows.push(compaction("old summary", { through: "m3" }));
    rows.push(answer("after"), user("third"));
    rows.push(compaction("new summary", { through: "m5" }));
    const built = buildRequest(system, rows);
    assert.deepEqual(texts(rows), [
      "system:prompt",
      "user:needle: the task",
      `user:${SUMMARY_HEADER}\n\nnew summary`,
      "assistant:after",
      "user:third",
    ]);
    assert.equal(built.layers[2], "summary");
  });

  it("goes back to what it sent before once the compaction is undone", () => {
    const rows = [user("go"), answer("a"), user("b"), answer("c")];
    const before = texts(rows);
    const withSummary = [...rows, compaction("sum", { through: "m3" })];
    assert.notDeepEqual(texts(withSummary), before);
    assert.deepEqual(texts(withSummary.slice(0, -1)), before);
  });

  it("ignores an entry whose covered message is gone, or whose meta cannot be read", () => {
    const rows = [user("go"), answer("a"), compaction("sum", { through: "m_gone" })];
    rows.push(row({ role: "compaction", content: "x", meta: { reason: "nonsense" } }));
    assert.deepEqual(texts(rows), ["system:prompt", "user:go", "assistant:a"]);
  });

  it("keeps the system messages, the first user message and the summary, and changes no row (property)", () => {
    const kinds = fc.constantFrom("user", "answer", "call", "compact");
    fc.assert(
      fc.property(fc.array(kinds, { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 39 }), (plan, pick) => {
        seq = 0;
        const rows: RequestRow[] = [user("first")];
        let calls = 0;
        for (const kind of plan) {
          if (kind === "user") rows.push(user(`u${rows.length}`));
          else if (kind === "answer") rows.push(answer(`a${rows.length}`));
          else if (kind === "call") {
            const id = `c${++calls}`;
            rows.push(step(id), output(id, `o${id}`));
          } else {
            const stored = rows.filter((r) => r.role !== "compaction");
            const through = stored[Math.min(pick, stored.length - 1)]!;
            rows.push(compaction(`summary ${rows.length}`, { through: through.id, pruned: [`c${calls}`] }));
          }
        }
        const snapshot = structuredClone(rows);
        const built = buildRequest(system, rows);
        assert.deepEqual(rows, snapshot, "the stored rows are never changed");
        assert.equal(built.messages[0]!.content, "prompt");
        assert.equal(built.messages[1]!.content, "first");
        const summaries = built.layers.filter((layer) => layer === "summary").length;
        assert.ok(summaries <= 1);
        if (rows.some((r) => r.role === "compaction")) assert.equal(summaries, 1);
        // Every tool result still follows the call that asked for it.
        built.messages.forEach((m, i) => {
          if (m.role !== "tool") return;
          const caller = built.messages.slice(0, i).findLast((p) => p.role === "assistant");
          const ids = ((caller?.tool_calls ?? []) as { id: string }[]).map((c) => c.id);
          assert.ok(ids.includes(m.tool_call_id as string), `result ${String(m.tool_call_id)} without its call`);
        });
      }),
    );
  });
});
