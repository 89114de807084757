// The context meter, the environment message and prompt caching (contract 7.3) against the fake
// gateway, which counts tokens with a real tokenizer, enforces context lengths and simulates caching.
import assert from "node:assert/strict";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";

describe("context: the meter, the environment, prompt caching", function () {
  this.timeout(30_000);
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  const turn = async (chatId: string, content: string) => readEvents(await send(f, chatId, { content }));
  const contexts = (events: { event: string; data: any }[]) =>
    events.filter((e) => e.event === "context").map((e) => e.data);
  const lastRequest = () => f.gateway.completions.at(-1)!.body as any;

  it("reports the context after turn.start and before turn.end, reconciled with the upstream's count", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    const events = await turn(chat.id, "hello there");
    const names = events.map((e) => e.event);
    assert.equal(names[0], "turn.start");
    assert.equal(names[1], "context", names.join(","));
    assert.equal(names.at(-2), "context");
    const [first, last] = [contexts(events)[0], contexts(events).at(-1)];
    assert.equal(first.source, "estimate");
    assert.equal(first.limit, 128_000);
    assert.ok(first.layers.system > 0, "the environment message counts as system");
    assert.ok(first.layers.history > 0);
    assert.equal(
      first.used,
      Object.values(first.layers as Record<string, number>).reduce((a, b) => a + b, 0),
    );
    assert.equal(last.source, "upstream", "the fake reported prompt_tokens");
    assert.ok(last.used > first.used, "the answer joined the history");
  });

  it("answers GET /api/chats/:id/context with the catalog's window for the chat's model", async () => {
    const chat = await newChat(f, { modelId: "fake/small-context" });
    const res = await f.s.api("GET", `/api/chats/${chat.id}/context`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.limit, 16_000);
    assert.equal(body.source, "estimate");
    assert.ok(body.layers.tools > 0, "the native tools' definitions");
    // fake/small-context's prompt price is in the catalog: the prompt alone, at that price.
    const catalog = (await (await f.s.api("GET", "/api/providers/gateway/models")).json()) as any[];
    const price = catalog.find((m) => m.id === "fake/small-context").pricing.prompt;
    assert.ok(Math.abs(body.nextRequestCost - body.used * price) < 1e-12, `${body.nextRequestCost}`);
    const unknown = await f.s.api("GET", "/api/chats/no-such-chat/context");
    assert.equal(unknown.status, 404);
  });

  it("sends the environment message after the prompt, and none when chat.environment is off", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await turn(chat.id, "one");
    const system = lastRequest().messages.filter((m: any) => m.role === "system");
    const environment = system.find((m: any) => String(m.content).startsWith("Environment:"));
    assert.ok(environment, JSON.stringify(system));
    assert.match(
      environment.content,
      new RegExp(`Project folder: ${f.s.projectDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
    );
    assert.match(environment.content, /Today's date: \d{4}-\d{2}-\d{2}(\n|$)/);
    assert.doesNotMatch(environment.content, /\d{2}:\d{2}/, "no time of day: the prefix stays cacheable");
    await f.s.api("PATCH", "/api/settings/app", { chat: { environment: false } });
    await turn(chat.id, "two");
    assert.ok(!lastRequest().messages.some((m: any) => String(m.content).startsWith("Environment:")));
  });

  it("marks the cache for an Anthropic model and reads it on the next step; no marks for others", async () => {
    const chat = await newChat(f, { modelId: "anthropic/fake-claude" });
    await turn(chat.id, "first question");
    const marked = JSON.stringify(lastRequest().messages);
    assert.match(marked, /"cache_control":\{"type":"ephemeral"\}/);
    const events = await turn(chat.id, "second question");
    const usage = events.find((e) => e.event === "usage")!.data;
    assert.ok(usage.cachedTokens > 0, JSON.stringify(usage));

    const plain = await newChat(f, { modelId: "fake/echo" });
    await turn(plain.id, "hi");
    assert.doesNotMatch(JSON.stringify(lastRequest().messages), /cache_control/);
    await f.s.api("PATCH", "/api/settings/app", { chat: { promptCaching: false } });
    await turn(chat.id, "third");
    assert.doesNotMatch(JSON.stringify(lastRequest().messages), /cache_control/);
  });

  it("keeps the prefix byte-stable from one turn to the next", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await turn(chat.id, "one");
    const first = lastRequest();
    await turn(chat.id, "two");
    const second = lastRequest();
    const prefix = JSON.stringify(first.messages);
    assert.equal(JSON.stringify(second.messages.slice(0, first.messages.length)), prefix);
    assert.equal(JSON.stringify(second.tools), JSON.stringify(first.tools));
  });

  it("keeps a ledger of every upstream request: cause, tokens, cached share and cost", async () => {
    await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } });
    const chat = await newChat(f, { modelId: "anthropic/fake-claude" });
    await turn(chat.id, "long: 2 1");
    await turn(chat.id, "and again");
    const res = await f.s.api("GET", `/api/chats/${chat.id}/requests`);
    assert.equal(res.status, 200);
    const rows = (await res.json()) as any[];
    assert.equal(rows.length, f.gateway.completions.length, "one row per request the gateway saw");
    const turns = [...new Set(rows.map((r) => r.turnId))];
    assert.equal(turns.length, 2);
    assert.ok(rows.filter((r) => r.turnId === turns[0]).length >= 3, "the first turn ran tool steps");
    assert.deepEqual(
      rows.filter((r) => r.turnId === turns[0]).map((r) => [r.step, r.cause]),
      rows.filter((r) => r.turnId === turns[0]).map((_, i) => [i, i === 0 ? "turn" : "tool_step"]),
    );
    for (const row of rows) {
      assert.equal(row.model, "anthropic/fake-claude");
      assert.ok(row.promptTokens > 0 && row.completionTokens >= 0);
      assert.equal(row.costSource, "gateway");
    }
    assert.ok(rows.at(-1).cachedTokens > 0, "the marked prefix was read from the cache");
    assert.ok(rows[0].cacheWriteTokens > 0, "and written by the first request");
    assert.equal((await f.s.api("GET", "/api/chats/nope/requests")).status, 404);
  });

  it("refuses a context window of 0 or of 10 billion with 400", async () => {
    for (const chat of [{ contextWindow: 0 }, { contextWindow: 10_000_000_000 }]) {
      const res = await f.s.api("PATCH", "/api/settings/app", { chat });
      assert.equal(res.status, 400, JSON.stringify(chat));
      assert.equal((await res.json()).error.code, "invalid_request");
    }
  });
});
