// Paged reads (contract 7.4): the last messages of a chat before one of them, and the chat list a
// page at a time, newest first, with `hasMore`; every bad `limit` and `before` refused.
import assert from "node:assert/strict";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("paged reads", function () {
  this.timeout(30_000);
  let s: TestServer;
  let projectId: string;
  beforeEach(async () => {
    s = await startTestServer();
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  afterEach(() => s.stop());

  const get = async (route: string) => {
    const res = await s.api("GET", route);
    assert.equal(res.status, 200, `${route}: ${await res.clone().text()}`);
    return res.json();
  };

  const usageOf = () => ({
    promptTokens: 10,
    completionTokens: 5,
    totalTokens: 15,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 0.001 as number | null,
    costSource: "gateway" as "gateway" | "estimate",
  });

  /** A chat of `count` stored messages (user and assistant by turns, every answer with usage). */
  async function chatOf(count: number): Promise<string> {
    const chat = await (await s.api("POST", `/api/projects/${projectId}/chats`, {})).json();
    const usage = usageOf();
    s.runtime.db.transaction(() => {
      for (let i = 0; i < count; i++)
        s.runtime.messages.append(chat.id, {
          role: i % 2 === 0 ? "user" : "assistant",
          content: `message ${i}`,
          status: "complete",
          ...(i % 2 === 1 ? { usage } : {}),
        });
    })();
    return chat.id;
  }

  it("answers the last messages before one, with hasMore, and the whole chat's usage", async () => {
    const id = await chatOf(1_000);
    const whole = await get(`/api/chats/${id}`);
    assert.equal(whole.messages.length, 1_000);
    assert.equal(whole.hasMore, undefined, "the old answer, for old clients");

    const last = await get(`/api/chats/${id}?limit=50`);
    assert.equal(last.messages.length, 50);
    assert.equal(last.messages[0].content, "message 950");
    assert.equal(last.messages[49].content, "message 999");
    assert.equal(last.hasMore, true);
    assert.deepEqual(last.usage, whole.usage, "totals are the chat's, not the page's");
    assert.equal(last.usage.turns, 500);
    assert.equal(last.usage.promptTokens, 5_000);
    assert.ok(Math.abs(last.usage.cost - 0.5) < 1e-9);
    assert.equal(last.usage.unknownCostTurns, 0);
    // One turn of unknown cost makes the chat's cost unknown, and is counted.
    s.runtime.messages.append(id, {
      role: "assistant",
      content: "priceless",
      status: "complete",
      usage: { ...usageOf(), cost: null, costSource: "estimate" },
    });
    const unknown = await get(`/api/chats/${id}?limit=1`);
    assert.equal(unknown.usage.cost, null);
    assert.equal(unknown.usage.unknownCostTurns, 1);
    assert.equal(unknown.usage.turns, 501);

    const older = await get(`/api/chats/${id}?limit=50&before=${last.messages[0].id}`);
    assert.equal(older.messages[49].content, "message 949");
    // Walk to the start: every message once, in order.
    const seen: string[] = [...older.messages, ...last.messages].map((m: any) => m.content);
    let page = older;
    while (page.hasMore) {
      page = await get(`/api/chats/${id}?limit=500&before=${page.messages[0].id}`);
      seen.unshift(...page.messages.map((m: any) => m.content));
    }
    assert.deepEqual(
      seen,
      Array.from({ length: 1_000 }, (_, i) => `message ${i}`),
    );
    const first = whole.messages[0].id;
    const none = await get(`/api/chats/${id}?limit=10&before=${first}`);
    assert.deepEqual(none.messages, []);
    assert.equal(none.hasMore, false);
    // `before` alone: everything before it.
    assert.equal((await get(`/api/chats/${id}?before=${last.messages[0].id}`)).messages.length, 950);
  });

  it("pages the chat list newest first", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await (await s.api("POST", `/api/projects/${projectId}/chats`, {})).json()).id);
    const all = await get(`/api/projects/${projectId}/chats`);
    assert.ok(Array.isArray(all));
    assert.deepEqual(
      all.map((c: any) => c.id),
      [...ids].reverse(),
    );
    const first = await get(`/api/projects/${projectId}/chats?limit=3`);
    assert.deepEqual(
      first.chats.map((c: any) => c.id),
      all.slice(0, 3).map((c: any) => c.id),
    );
    assert.equal(first.hasMore, true);
    const second = await get(`/api/projects/${projectId}/chats?limit=3&before=${first.chats[2].id}`);
    assert.deepEqual(
      second.chats.map((c: any) => c.id),
      all.slice(3, 6).map((c: any) => c.id),
    );
    const third = await get(`/api/projects/${projectId}/chats?limit=3&before=${second.chats[2].id}`);
    assert.equal(third.chats.length, 1);
    assert.equal(third.hasMore, false);
  });

  it("refuses a bad limit with 400 and another chat's message with 404", async () => {
    const id = await chatOf(10);
    const other = await chatOf(4);
    const otherMessage = (await get(`/api/chats/${other}`)).messages[0].id;
    for (const limit of ["0", "-1", "1000000000", "abc", "2.5", "501", ""]) {
      const res = await s.api("GET", `/api/chats/${id}?limit=${limit}`);
      assert.equal(res.status, 400, `limit=${limit}`);
      assert.equal((await res.json()).error.code, "invalid_request");
      assert.equal((await s.api("GET", `/api/projects/${projectId}/chats?limit=${limit}`)).status, 400);
    }
    const foreign = await s.api("GET", `/api/chats/${id}?limit=5&before=${otherMessage}`);
    assert.equal(foreign.status, 404);
    assert.equal((await s.api("GET", `/api/chats/${id}?limit=5&before=m_nope`)).status, 404);
    const otherProject = (await (await s.api("POST", "/api/projects", { dir: s.home })).json()).id;
    const foreignChat = await s.api("GET", `/api/projects/${otherProject}/chats?limit=5&before=${id}`);
    assert.equal(foreignChat.status, 404);
  });
});
