import assert from "node:assert/strict";
import { MAX_CACHE_MARKS, needsCacheMarks, withCacheMarks } from "../../../../src/chat/context/cache-marks";
import type { UpstreamMessage } from "../../../../src/chat/transcript";

const marks = (messages: UpstreamMessage[]) =>
  messages.flatMap((m, i) =>
    Array.isArray(m.content) && (m.content as any[]).some((p) => p.cache_control) ? [i] : [],
  );

describe("prompt caching marks", () => {
  const session: UpstreamMessage[] = [
    { role: "system", content: "prompt" },
    { role: "system", content: "environment" },
    { role: "user", content: "read a.ts" },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "file", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: "c1", content: "contents of a.ts" },
    { role: "assistant", content: "done" },
    { role: "user", content: "now b.ts" },
  ];

  it("marks only Anthropic and Gemini models", () => {
    assert.equal(needsCacheMarks("anthropic/claude-sonnet-4"), true);
    assert.equal(needsCacheMarks("google/gemini-2.5-pro"), true);
    assert.equal(needsCacheMarks("openai/gpt-5"), false);
    assert.equal(needsCacheMarks("google/gemma-3"), false);
    assert.deepEqual(withCacheMarks("openai/gpt-5", session), session);
  });

  it("marks the end of the system messages and the newest messages, at most four", () => {
    const sent = withCacheMarks("anthropic/claude-sonnet-4", session);
    assert.deepEqual(marks(sent), [1, 4, 5, 6]);
    assert.ok(marks(sent).length <= MAX_CACHE_MARKS);
    assert.deepEqual(sent[6]!.content, [{ type: "text", text: "now b.ts", cache_control: { type: "ephemeral" } }]);
    assert.equal(sent[3], session[3], "a step with calls and no text is left as it is");
  });

  it("keeps the text byte for byte and leaves the input untouched", () => {
    const before = JSON.stringify(session);
    const sent = withCacheMarks("google/gemini-2.5-pro", session);
    assert.equal(JSON.stringify(session), before);
    const texts = sent.map((m) =>
      Array.isArray(m.content) ? (m.content as any[]).map((p) => p.text).join("") : m.content,
    );
    assert.deepEqual(
      texts,
      session.map((m) => m.content),
    );
  });

  it("keeps the earlier request's prefix identical in the next step (only marks move)", () => {
    const step1 = withCacheMarks("anthropic/claude-sonnet-4", session.slice(0, 5));
    const step2 = withCacheMarks("anthropic/claude-sonnet-4", session);
    const strip = (m: UpstreamMessage) => JSON.stringify(m).replaceAll(',"cache_control":{"type":"ephemeral"}', "");
    const unwrap = (m: UpstreamMessage) =>
      Array.isArray(m.content) ? { ...m, content: (m.content as any[]).map((p) => p.text).join("") } : m;
    assert.deepEqual(step1.map(unwrap).map(strip), step2.slice(0, 5).map(unwrap).map(strip));
  });
});
