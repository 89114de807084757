import assert from "node:assert/strict";
import { MESSAGE_OVERHEAD_TOKENS, TokenCounter } from "../../../../src/chat/context/token-count";

describe("token counting", () => {
  let counter: TokenCounter;
  before(async () => (counter = await TokenCounter.load()));

  it("counts with a real BPE tokenizer, not characters over four", () => {
    assert.equal(counter.count(""), 0);
    assert.equal(counter.count("hello world"), 2);
    // Repetitive text compresses far better than 4 characters a token.
    const code = "const x = 1; // hello world\n".repeat(1000);
    const n = counter.count(code);
    assert.ok(n > 5_000 && n < 12_000, `${n}`);
  });

  it("is one counter for the process, so what a turn counted is remembered by the next", async () => {
    assert.equal(await TokenCounter.load(), counter);
  });

  it("counts a text once, however often it is asked", () => {
    let encodes = 0;
    const counting = new TokenCounter((text) => (encodes++, text.length));
    const long = "x".repeat(10_000);
    for (let i = 0; i < 100; i++) counting.count(long);
    assert.equal(encodes, 1);
  });

  it("forgets the least recently used texts first", () => {
    let encodes = 0;
    const counting = new TokenCounter((text) => (encodes++, text.length));
    // More than the memo keeps (50,000 texts): the first ones are forgotten.
    const texts = Array.from({ length: 50_001 }, (_, i) => `${i}`.padEnd(100, "."));
    for (const text of texts) counting.count(text);
    encodes = 0;
    counting.count(texts[50_000]!);
    assert.equal(encodes, 0, "a recent text is remembered");
    counting.count(texts[0]!);
    assert.equal(encodes, 1, "the oldest is forgotten");
  });

  it("keeps a 10,000-message chat's texts, and forgets by characters past its budget", () => {
    let encodes = 0;
    const counting = new TokenCounter((text) => (encodes++, text.length));
    const chat = Array.from({ length: 10_000 }, (_, i) => `${i} `.padEnd(600, "word "));
    for (const text of chat) counting.count(text);
    encodes = 0;
    for (const text of chat) counting.count(text);
    assert.equal(encodes, 0, "counted once");
    const huge = Array.from({ length: 40 }, (_, i) => `${i}`.padEnd(1_000_000, "y"));
    for (const text of huge) counting.count(text);
    encodes = 0;
    counting.count(huge[0]!);
    assert.equal(encodes, 1, "32 MB of text at most: the first megabyte texts went");
  });

  it("counts each tool schema once for as long as it lives", () => {
    let encodes = 0;
    const counting = new TokenCounter((text) => (encodes++, text.length));
    const parameters = { type: "object", properties: { q: { type: "string", description: "x".repeat(100) } } };
    const tools = Array.from({ length: 80 }, (_, i) => ({
      type: "function",
      function: { name: `tool_${i}`, description: "d", parameters },
    }));
    const first = counting.countTools(tools);
    encodes = 0;
    // A new array of new tool objects around the same schema, as the next turn builds it.
    assert.equal(counting.countTools(tools.map((t) => ({ ...t, function: { ...t.function } }))), first);
    assert.equal(encodes, 80 + 80, "a shared schema: names and descriptions only, never the schema again");
    assert.ok(first > 80 * JSON.stringify(parameters).length);
  });

  it("counts a known tool (its own schema, same name and description) with no tokenizer pass at all", () => {
    let encodes = 0;
    const counting = new TokenCounter((text) => (encodes++, text.length));
    const tools = Array.from({ length: 80 }, (_, i) => ({
      type: "function",
      function: { name: `tool_${i}`, description: "d", parameters: { type: "object", properties: { [`p${i}`]: {} } } },
    }));
    const first = counting.countTools(tools);
    encodes = 0;
    assert.equal(counting.countTools(tools.map((t) => ({ ...t, function: { ...t.function } }))), first);
    assert.equal(encodes, 0);
    // A server that changed a tool's description is counted again.
    const changed = tools.map((t, i) => (i === 0 ? { ...t, function: { ...t.function, description: "dd" } } : t));
    assert.equal(counting.countTools(changed), first + 1);
    assert.equal(encodes, 2, "its name and new description; its schema is remembered");
  });

  it("counts a message with its overhead, structured content and tool calls included", () => {
    assert.equal(counter.countMessage({ content: "hello world" }), 2 + MESSAGE_OVERHEAD_TOKENS);
    assert.equal(counter.countMessage({ content: null }), MESSAGE_OVERHEAD_TOKENS);
    const withCalls = counter.countMessage({
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "shell", arguments: '{"cmd":"ls"}' } }],
    });
    assert.ok(withCalls > MESSAGE_OVERHEAD_TOKENS + 5, `${withCalls}`);
  });
});
