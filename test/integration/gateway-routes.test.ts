import assert from "node:assert/strict";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";

describe("gateway routes", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("lists the text slice by default with prices as numbers, and the transcription slice apart", async () => {
    const text = await (await f.s.api("GET", "/api/providers/gateway/models")).json();
    const sonnet = text.find((m: any) => m.id === "anthropic/claude-sonnet-4");
    assert.deepEqual(sonnet, {
      id: "anthropic/claude-sonnet-4",
      label: "Anthropic: Claude Sonnet 4",
      contextLength: 128000,
      pricing: {
        prompt: 0.000003,
        completion: 0.000015,
        request: 0,
        input_cache_read: 3e-7,
        input_cache_write: 0.00000375,
      },
      inputModalities: ["text"],
      outputModalities: ["text"],
    });
    const transcription = await (await f.s.api("GET", "/api/providers/gateway/models?slice=transcription")).json();
    assert.deepEqual(
      transcription.map((m: any) => m.id),
      ["openai/whisper-1"],
    );
    const modelRequests = f.gateway.requests.filter((r) => r.path === "/api/v1/models");
    assert.deepEqual(
      modelRequests.map((r) => r.query.get("output_modalities")),
      [null, "transcription"],
    );
  });

  it("caches each slice (memory and database) so a second call does not reach the gateway", async () => {
    await f.s.api("GET", "/api/providers/gateway/models");
    await f.s.api("GET", "/api/providers/gateway/models");
    assert.equal(f.gateway.requests.filter((r) => r.path === "/api/v1/models").length, 1);
    const row = f.s.runtime.db.prepare("SELECT value FROM app_kv WHERE key = 'cache.gateway.models.text'").get() as {
      value: string;
    };
    assert.equal(JSON.parse(row.value).baseUrl, f.gateway.baseUrl);
  });

  it("answers 400 for an unknown slice and 502 with the status when the gateway fails", async () => {
    assert.equal((await f.s.api("GET", "/api/providers/gateway/models?slice=video")).status, 400);
    await f.gateway.stop();
    const res = await f.s.api("GET", "/api/providers/gateway/models");
    assert.equal(res.status, 502);
    assert.equal((await res.json()).error.code, "upstream_error");
  });

  it("falls back to the key's own limit when the key may not read credits, and says so", async () => {
    const body = await (await f.s.api("GET", "/api/providers/gateway/credits")).json();
    assert.equal(body.source, "key");
    assert.equal(body.balance, 8.75);
    assert.match(body.note, /cannot read the account balance/);
    await f.s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-fake-management" }] });
    assert.deepEqual(await (await f.s.api("GET", "/api/providers/gateway/credits")).json(), {
      source: "credits",
      totalCredits: 25,
      totalUsage: 7.5,
      balance: 17.5,
    });
  });
});

describe("chats and usage routes", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("creates, lists newest first, patches, clears with null, and deletes chats", async () => {
    await f.s.api("POST", "/api/prompts", { scope: "app", prompt: { id: "p1", title: "P1", content: "Be brief." } });
    const a = await newChat(f, { title: "A" });
    const b = await newChat(f, { title: "B", promptId: "p1", tools: ["shell"], agentFiles: false });
    assert.equal((await f.s.api("POST", `/api/projects/${f.projectId}/chats`, { promptId: "nope" })).status, 400);
    const list = await (await f.s.api("GET", `/api/projects/${f.projectId}/chats`)).json();
    assert.deepEqual(
      list.map((c: any) => c.title),
      ["B", "A"],
    );
    assert.deepEqual(list[0].tools, ["shell"]);
    assert.equal(list[0].agentFiles, false);
    const patched = await (
      await f.s.api("PATCH", `/api/chats/${b.id}`, { promptId: null, tools: null, title: "B2" })
    ).json();
    assert.equal(patched.promptId, null);
    assert.equal(patched.tools, null);
    assert.equal(patched.title, "B2");
    assert.equal((await f.s.api("PATCH", `/api/chats/${b.id}`, { title: 5 })).status, 400);
    assert.equal((await f.s.api("PATCH", `/api/chats/${b.id}`, { unknown: 1 })).status, 400);
    assert.equal((await f.s.api("DELETE", `/api/chats/${a.id}`)).status, 204);
    assert.equal((await f.s.api("GET", `/api/chats/${a.id}`)).status, 404);
    assert.equal((await f.s.api("GET", "/api/projects/p_nope/chats")).status, 404);
  });

  it("sums usage by model and by day, per project or for all", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "one" }));
    await readEvents(await send(f, chat.id, { content: "two", modelId: "openai/gpt-4o-mini" }));
    const byModel = await (
      await f.s.api("GET", `/api/usage?groupBy=model&projectDir=${encodeURIComponent(f.s.projectDir)}`)
    ).json();
    assert.deepEqual(
      byModel.map((r: any) => [r.key, r.turns]),
      [
        ["fake/echo", 1],
        ["openai/gpt-4o-mini", 1],
      ],
    );
    assert.ok(byModel.every((r: any) => r.cost > 0 && r.promptTokens > 0));
    const byDay = await (await f.s.api("GET", "/api/usage?groupBy=day")).json();
    assert.equal(byDay.length, 1);
    assert.equal(byDay[0].key, new Date().toISOString().slice(0, 10));
    assert.equal(byDay[0].turns, 2);
    const none = await (await f.s.api("GET", "/api/usage?from=2999-01-01")).json();
    assert.deepEqual(none, []);
    assert.equal((await f.s.api("GET", "/api/usage?groupBy=week")).status, 400);
    assert.equal((await f.s.api("GET", "/api/usage?from=yesterday")).status, 400);
  });
});
