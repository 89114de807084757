// Conversations as trees (contract 7.4): edit and resend, regenerate, switching versions, forks and
// paging over the current path, against the real server, SQLite and the fake gateway.
import assert from "node:assert/strict";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents, text } from "../helpers/sse";
import { conversation } from "../helpers/upstream-messages";

type Stored = {
  id: string;
  role: string;
  content: string;
  parentId: string | null;
  siblings: string[];
  siblingIndex: number;
};

describe("conversation tree: edit, regenerate, versions, fork", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  async function turn(chatId: string, body: Record<string, unknown>, answer: string) {
    f.gateway.enqueue({ kind: "reply", text: answer });
    const res = await send(f, chatId, body);
    assert.equal(res.status, 200, `${await res.clone().text()}\n${f.s.logLines.join("\n")}`);
    const events = await readEvents(res);
    assert.equal(text(events), answer);
    return events;
  }
  async function path(chatId: string, query = ""): Promise<{ messages: Stored[]; hasMore?: boolean; leafId: string }> {
    return (await f.s.api("GET", `/api/chats/${chatId}${query}`)).json();
  }
  const shown = (messages: Stored[]) => messages.map((m) => m.content);
  const lastRequest = () => conversation((f.gateway.completions.at(-1)!.body as any).messages);

  /** A chat of two turns: Q1 → A1, Q2 → A2. */
  async function twoTurns() {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await turn(chat.id, { content: "Q1" }, "A1");
    await turn(chat.id, { content: "Q2" }, "A2");
    return chat.id;
  }

  it("edit and resend: a new user message beside the edited one, sent without the old branch; the old one stays", async () => {
    const chatId = await twoTurns();
    const [, , q2] = (await path(chatId)).messages;
    await turn(chatId, { content: "Q2, edited", parentId: q2!.id }, "A2 edited");
    assert.deepEqual(lastRequest(), [
      { role: "user", content: "Q1" },
      { role: "assistant", content: "A1" },
      { role: "user", content: "Q2, edited" },
    ]);
    const after = await path(chatId);
    assert.deepEqual(shown(after.messages), ["Q1", "A1", "Q2, edited", "A2 edited"]);
    const edited = after.messages[2]!;
    assert.equal(edited.parentId, q2!.parentId);
    assert.deepEqual(edited.siblings, [q2!.id, edited.id]);
    assert.equal(edited.siblingIndex, 1);
    assert.deepEqual(after.messages[0]!.siblings, [after.messages[0]!.id]);

    // "‹ 1/2": back to the first version, which shows its own answer (the newest under it).
    const switched = await f.s.api("PATCH", `/api/chats/${chatId}`, { leafId: q2!.id });
    assert.equal(switched.status, 200);
    assert.equal((await switched.json()).leafId, (await path(chatId)).messages.at(-1)!.id);
    assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2", "A2"]);
    // The next message continues the branch shown.
    await turn(chatId, { content: "Q3" }, "A3");
    assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2", "A2", "Q3", "A3"]);
  });

  it("naming the edited message's parent, or null for the first message, branches the same way", async () => {
    const chatId = await twoTurns();
    const [q1, a1] = (await path(chatId)).messages;
    await turn(chatId, { content: "Q2 again", parentId: a1!.id }, "B");
    assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2 again", "B"]);
    await turn(chatId, { content: "Q1 rewritten", parentId: null }, "C");
    const after = await path(chatId);
    assert.deepEqual(shown(after.messages), ["Q1 rewritten", "C"]);
    assert.deepEqual(after.messages[0]!.siblings, [q1!.id, after.messages[0]!.id]);
    assert.deepEqual(lastRequest(), [{ role: "user", content: "Q1 rewritten" }]);
  });

  it("regenerate: a new answer beside the old one, from the same user message, with no new user message", async () => {
    const chatId = await twoTurns();
    const before = (await path(chatId)).messages;
    const a2 = before[3]!;
    const events = await turn(chatId, { regenerate: a2.id }, "A2 again");
    assert.equal(events[0]!.event, "turn.start");
    assert.deepEqual(lastRequest(), [
      { role: "user", content: "Q1" },
      { role: "assistant", content: "A1" },
      { role: "user", content: "Q2" },
    ]);
    const after = (await path(chatId)).messages;
    assert.deepEqual(shown(after), ["Q1", "A1", "Q2", "A2 again"]);
    assert.equal(after[2]!.id, before[2]!.id, "the same user message");
    assert.deepEqual(after[3]!.siblings, [a2.id, after[3]!.id]);
    assert.equal(after[3]!.siblingIndex, 1);
    // Previous version: the first answer is still there.
    await f.s.api("PATCH", `/api/chats/${chatId}`, { leafId: a2.id });
    assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2", "A2"]);
  });

  it("fork from here: a new chat with the path up to that message, its own from then on", async () => {
    const chatId = await twoTurns();
    const [q1, a1] = (await path(chatId)).messages;
    const res = await f.s.api("POST", `/api/chats/${chatId}/fork`, { messageId: a1!.id });
    assert.equal(res.status, 201);
    const fork = await res.json();
    assert.notEqual(fork.id, chatId);
    assert.match(fork.title, /\(fork\)$/);
    const forked = await path(fork.id);
    assert.deepEqual(shown(forked.messages), ["Q1", "A1"]);
    assert.notEqual(forked.messages[0]!.id, q1!.id, "copies, not the same rows");
    await turn(fork.id, { content: "Q2 in the fork" }, "F");
    assert.deepEqual(lastRequest(), [
      { role: "user", content: "Q1" },
      { role: "assistant", content: "A1" },
      { role: "user", content: "Q2 in the fork" },
    ]);
    assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2", "A2"], "the original is untouched");
    const list = await (await f.s.api("GET", `/api/projects/${f.projectId}/chats`)).json();
    assert.ok(list.some((c: { id: string }) => c.id === fork.id));
  });

  it("pages over the current path only, with hasMore", async () => {
    const chatId = await twoTurns();
    const [, , q2] = (await path(chatId)).messages;
    await turn(chatId, { content: "Q2b", parentId: q2!.id }, "A2b");
    const last = await path(chatId, "?limit=2");
    assert.deepEqual(shown(last.messages), ["Q2b", "A2b"]);
    assert.equal(last.hasMore, true);
    const older = await path(chatId, `?limit=5&before=${last.messages[0]!.id}`);
    assert.deepEqual(shown(older.messages), ["Q1", "A1"]);
    assert.equal(older.hasMore, false);
  });

  describe("bad input", () => {
    it("edit, regenerate or a version switch while a turn runs: 409; the running turn goes on", async () => {
      const chatId = await twoTurns();
      const [q1, , , a2] = (await path(chatId)).messages;
      f.gateway.enqueue({ kind: "reply", pieces: ["slow ", "answer"], delayMs: 400 });
      const running = await send(f, chatId, { content: "Q3" });
      for (const body of [{ content: "edit", parentId: q1!.id }, { regenerate: a2!.id }]) {
        const res = await send(f, chatId, body);
        assert.equal(res.status, 409);
        assert.match((await res.json()).error.message, /already answering/);
      }
      const patch = await f.s.api("PATCH", `/api/chats/${chatId}`, { leafId: a2!.id });
      assert.equal(patch.status, 409);
      assert.equal(text(await readEvents(running)), "slow answer");
      assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2", "A2", "Q3", "slow answer"]);
    });

    it("a message of another chat: 404 for parentId, regenerate, leafId and fork; nothing stored", async () => {
      const chatId = await twoTurns();
      const other = await newChat(f, { modelId: "fake/echo" });
      await turn(other.id, { content: "elsewhere" }, "E");
      const foreign = (await path(other.id)).messages[1]!.id;
      const requests = f.gateway.completions.length;
      for (const body of [{ content: "x", parentId: foreign }, { regenerate: foreign }]) {
        const res = await send(f, chatId, body);
        assert.equal(res.status, 404);
        assert.equal((await res.json()).error.code, "not_found");
      }
      assert.equal((await f.s.api("PATCH", `/api/chats/${chatId}`, { leafId: foreign })).status, 404);
      assert.equal((await f.s.api("POST", `/api/chats/${chatId}/fork`, { messageId: foreign })).status, 404);
      assert.equal((await f.s.api("POST", `/api/chats/nope/fork`, { messageId: foreign })).status, 404);
      assert.equal(f.gateway.completions.length, requests, "nothing sent");
      assert.deepEqual(shown((await path(chatId)).messages), ["Q1", "A1", "Q2", "A2"]);
    });

    it("regenerate of a user message, regenerate with content, and a body with neither: 400", async () => {
      const chatId = await twoTurns();
      const [q1, a1] = (await path(chatId)).messages;
      for (const body of [{ regenerate: q1!.id }, { regenerate: a1!.id, content: "x" }, {}, { parentId: a1!.id }]) {
        const res = await send(f, chatId, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal((await res.json()).error.code, "invalid_request");
      }
      const fork = await f.s.api("POST", `/api/chats/${chatId}/fork`, {});
      assert.equal(fork.status, 400);
    });
  });
});
