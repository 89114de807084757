// The fake gateway measures prompts as the hosted gateway does, over real HTTP on loopback: each
// model's context length enforced with the gateway's 400, prompt tokens from a real tokenizer, and
// prompt caching (behind cache_control marks for anthropic/* and google/gemini*, automatic for the rest)
// with cached and written tokens in usage and a cost discounted for them.
import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { FakeGateway } from "../fake-gateway/server";
import { TEXT_MODELS } from "../fake-gateway/catalog";
import { PromptCache } from "../fake-gateway/prompt-cache";

type Usage = {
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens: number };
};
type Message = { role: string; content: unknown; [key: string]: unknown };

const ephemeral = { type: "ephemeral" };
/** About `n` tokens of text that differs from one call to the next `seed`. */
const prose = (seed: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${seed}${i % 7 === 0 ? "." : ""}`).join(" ");
const marked = (text: string) => [{ type: "text", text, cache_control: ephemeral }];

describe("fake gateway: context length, token counts and prompt caching", () => {
  let gateway: FakeGateway;
  beforeEach(async () => (gateway = await new FakeGateway().start()));
  afterEach(() => gateway.stop());

  const post = (body: Record<string, unknown>) =>
    fetch(`${gateway.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-fake", "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  /** A streamed completion's usage chunk. */
  async function usageOf(model: string, messages: Message[], extra: Record<string, unknown> = {}): Promise<Usage> {
    const res = await post({ model, messages, stream: true, ...extra });
    assert.equal(res.status, 200, await res.clone().text());
    const chunks = (await res.text())
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)));
    return chunks.find((c) => c.usage)!.usage;
  }

  const price = (id: string) => {
    const p = TEXT_MODELS.find((m) => m.id === id)!.pricing;
    return {
      prompt: Number(p.prompt),
      completion: Number(p.completion),
      read: Number(p.input_cache_read),
      write: Number(p.input_cache_write),
    };
  };

  describe("context length", () => {
    it("lists a context length for every model, 16,000 for fake/small-context", async () => {
      const { data } = await (await fetch(`${gateway.baseUrl}/models`)).json();
      assert.ok(data.every((m: { context_length: unknown }) => typeof m.context_length === "number"));
      assert.equal(data.find((m: { id: string }) => m.id === "fake/small-context").context_length, 16_000);
      assert.equal(data.find((m: { id: string }) => m.id === "fake/tools").context_length, 128_000);
    });

    it("answers 400 with the gateway's context-length message when the prompt exceeds the window", async () => {
      const res = await post({
        model: "fake/small-context",
        messages: [{ role: "user", content: prose("overflow", 20_000) }],
        stream: true,
      });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.error.code, 400);
      assert.match(
        body.error.message,
        /^This endpoint's maximum context length is 16000 tokens\. However, you requested about (\d+) tokens \(\1 of text input, 0 in the output\)\. Please reduce the length/,
      );
      const requested = Number(/about (\d+) tokens/.exec(body.error.message)![1]);
      assert.ok(requested > 16_000 && requested < 25_000, String(requested));
      assert.equal(gateway.promptCache.size, 0, "a refused request caches nothing");
    });

    it("counts the tools and the requested output against the window, and honours a per-test window", async () => {
      gateway.contextLengths.set("fake/echo", 1_000);
      const listed = (await (await fetch(`${gateway.baseUrl}/models`)).json()).data;
      assert.equal(listed.find((m: { id: string }) => m.id === "fake/echo").context_length, 1_000);
      const messages = [{ role: "user", content: "hello" }];
      const tools = [{ type: "function", function: { name: "t", description: prose("tool", 400), parameters: {} } }];
      assert.equal((await post({ model: "fake/echo", messages, stream: true, tools })).status, 200);
      const tooMuch = await post({ model: "fake/echo", messages, stream: true, tools, max_tokens: 700 });
      assert.equal(tooMuch.status, 400);
      assert.match((await tooMuch.json()).error.message, /of text input, \d+ of tool input, 700 in the output/);
    });
  });

  describe("token counts", () => {
    it("reports prompt_tokens as gpt-tokenizer counts the messages (4 more each) and the tools, completion_tokens from the answer", async () => {
      const tools = [{ type: "function", function: { name: "file", parameters: { type: "object" } } }];
      const messages = [
        { role: "system", content: "You are terse." },
        {
          role: "user",
          content: [
            { type: "text", text: "Read " },
            { type: "text", text: "the file, please." },
          ],
        },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "file", arguments: '{"path":"a.txt"}' } }],
        },
        { role: "tool", tool_call_id: "c1", content: "hello from a.txt" },
      ];
      const expected =
        countTokens("You are terse.") +
        countTokens("Read the file, please.") +
        countTokens("file") +
        countTokens('{"path":"a.txt"}') +
        countTokens("hello from a.txt") +
        4 * messages.length +
        countTokens(JSON.stringify(tools));
      const usage = await usageOf("fake/echo", messages, { tools });
      assert.equal(usage.prompt_tokens, expected);
      gateway.enqueue({ kind: "reply", text: "The answer is forty-two." });
      const answered = await usageOf("fake/echo", messages, { tools });
      assert.equal(answered.completion_tokens, countTokens("The answer is forty-two."));
      gateway.enqueue({ kind: "reply", pieces: ["Hel", "lo"] });
      assert.equal((await usageOf("fake/echo", messages)).completion_tokens, 2, "a scripted piece is a token");
      const p = price("fake/echo");
      assert.ok(Math.abs(answered.cost - (expected * p.prompt + answered.completion_tokens * p.completion)) < 1e-12);
    });
  });

  describe("caching behind cache_control marks (anthropic/*, google/gemini*)", () => {
    const system = prose("policy", 1_500);

    it("writes the marked prefix first, then reads it on the next request at 10% of the price", async () => {
      const first = [
        { role: "system", content: marked(system) },
        { role: "user", content: "first question" },
      ];
      const one = await usageOf("anthropic/fake-claude", first);
      const prefix = countTokens(system) + 4;
      assert.deepEqual(one.prompt_tokens_details, { cached_tokens: 0, cache_write_tokens: prefix, audio_tokens: 0 });
      const p = price("anthropic/fake-claude");
      const oneCost = (one.prompt_tokens - prefix) * p.prompt + prefix * p.write + one.completion_tokens * p.completion;
      assert.ok(Math.abs(one.cost - oneCost) < 1e-12);

      const second = [
        { role: "system", content: marked(system) },
        { role: "user", content: "another question" },
      ];
      const two = await usageOf("anthropic/fake-claude", second);
      assert.deepEqual(two.prompt_tokens_details, { cached_tokens: prefix, cache_write_tokens: 0, audio_tokens: 0 });
      const twoCost = (two.prompt_tokens - prefix) * p.prompt + prefix * p.read + two.completion_tokens * p.completion;
      assert.ok(Math.abs(two.cost - twoCost) < 1e-12);
      assert.ok(two.cost < one.cost / 3);
    });

    it("misses when the marked prefix changes by one byte", async () => {
      await usageOf("google/gemini-fake", [
        { role: "system", content: marked(system) },
        { role: "user", content: "q" },
      ]);
      const changed = `${system.slice(0, 100)}X${system.slice(101)}`;
      const usage = await usageOf("google/gemini-fake", [
        { role: "system", content: marked(changed) },
        { role: "user", content: "q" },
      ]);
      assert.equal(usage.prompt_tokens_details.cached_tokens, 0);
      assert.ok(usage.prompt_tokens_details.cache_write_tokens > 1_000);
    });

    it("caches nothing for an unmarked anthropic request, however often it repeats", async () => {
      const messages = [
        { role: "system", content: system },
        { role: "user", content: "q" },
      ];
      for (let i = 0; i < 3; i++) {
        const usage = await usageOf("anthropic/fake-claude", messages);
        assert.deepEqual(usage.prompt_tokens_details, { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0 });
      }
    });

    it("reads the longest cached mark when marks move along a growing conversation, as Parley sends them", async () => {
      const history: Message[] = [
        { role: "system", content: system },
        { role: "user", content: "step one" },
      ];
      // Parley marks the end of the system messages and the newest message; the next request also keeps
      // a mark where the previous one ended (a string sent as one marked text part).
      const send = (marks: number[]) =>
        usageOf(
          "anthropic/fake-claude",
          history.map((m, i) => (marks.includes(i) ? { ...m, content: marked(String(m.content)) } : m)),
        );
      const one = await send([0, 1]);
      assert.equal(one.prompt_tokens_details.cached_tokens, 0);
      assert.equal(one.prompt_tokens_details.cache_write_tokens, one.prompt_tokens);
      history.push({ role: "assistant", content: "done with one" }, { role: "user", content: "step two" });
      const two = await send([0, 1, 3]);
      assert.equal(two.prompt_tokens_details.cached_tokens, one.prompt_tokens);
      assert.equal(two.prompt_tokens_details.cache_write_tokens, two.prompt_tokens - one.prompt_tokens);
      history.push({ role: "assistant", content: "done with two" }, { role: "user", content: "step three" });
      const three = await send([0, 3, 5]);
      assert.equal(three.prompt_tokens_details.cached_tokens, two.prompt_tokens);
    });
  });

  describe("automatic caching (every other model)", () => {
    const long = prose("context", 1_500);

    it("counts the longest repeated prefix of whole messages as cached, billed at 50%", async () => {
      const first = [
        { role: "system", content: long },
        { role: "user", content: "first" },
      ];
      const one = await usageOf("openai/gpt-4o-mini", first);
      assert.deepEqual(one.prompt_tokens_details, { cached_tokens: 0, cache_write_tokens: 0, audio_tokens: 0 });
      const two = await usageOf("openai/gpt-4o-mini", [
        ...first,
        { role: "assistant", content: "an answer" },
        { role: "user", content: "second" },
      ]);
      assert.equal(two.prompt_tokens_details.cached_tokens, one.prompt_tokens);
      assert.equal(two.prompt_tokens_details.cache_write_tokens, 0);
      const p = price("openai/gpt-4o-mini");
      const cached = one.prompt_tokens;
      const cost =
        (two.prompt_tokens - cached) * p.prompt + cached * p.prompt * 0.5 + two.completion_tokens * p.completion;
      assert.ok(Math.abs(two.cost - cost) < 1e-15);

      // Another model keeps its own cache; a changed first message shares no prefix.
      const other = await usageOf("fake/echo", first);
      assert.equal(other.prompt_tokens_details.cached_tokens, 0);
      const changed = await usageOf("openai/gpt-4o-mini", [{ role: "system", content: `${long}!` }, first[1]!]);
      assert.equal(changed.prompt_tokens_details.cached_tokens, 0);
    });

    it("caches no prefix under 1024 tokens", async () => {
      const messages = [
        { role: "system", content: prose("brief", 300) },
        { role: "user", content: "q" },
      ];
      await usageOf("fake/echo", messages);
      const again = await usageOf("fake/echo", messages);
      assert.equal(again.prompt_tokens_details.cached_tokens, 0);
    });

    it("keeps the cache bounded", () => {
      const cache = new PromptCache(10);
      for (let i = 0; i < 30; i++)
        cache.lookup(
          "fake/echo",
          [
            { role: "user", content: `m${i}` },
            { role: "user", content: "x" },
          ],
          undefined,
          0,
          [1, 1],
        );
      assert.equal(cache.size, 10);
    });
  });
});
