// Attacks on the conversation tree (contract 7.4), as an attacker and as a clumsy client would make
// them, against the real server, SQLite and the fake gateway: ids of other chats and of rows that are
// not turns (compaction, tool, file, a subagent's) wherever an id goes, edits and version switches
// racing each other and a send, a fork and a cancel mid-turn, undoing a compaction on a branched chat,
// a kill -9 mid-edit, huge and odd values, paging over a tree, and usage after a fork. Every refusal is
// a 4xx in the contract's error shape with nothing stored; the tree stays sound after every attack.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, TEST_KEY, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { until } from "../helpers/poll";
import { startCli, type CliProcess } from "../helpers/cli-process";
import { makeTempDir, removeDir } from "../helpers/temp";
import { FakeGateway } from "../fake-gateway/server";
import { SUMMARY_HEADER } from "../../src/chat/context/request-messages";
import type { Db } from "../../src/platform/db";

type Stored = {
  id: string;
  chatId: string;
  role: string;
  content: string;
  status: string;
  parentId: string | null;
  siblings: string[];
  siblingIndex: number;
  usage: { totalTokens: number } | null;
  meta: Record<string, any> | null;
};
type ChatRead = { id: string; leafId: string | null; messages: Stored[]; hasMore?: boolean; usage: any };
type Wire = { role: string; content: unknown; tool_calls?: { id: string }[]; tool_call_id?: string };

/** A refusal in the contract's shape: the status, `error.code`, a message in words, never a 500. */
async function refused(res: Response, status: number, code: string, what = ""): Promise<string> {
  const body = await res.text();
  assert.equal(res.status, status, `${what}: ${res.status} ${body.slice(0, 300)}`);
  const parsed = JSON.parse(body) as { error: { code: string; message: string } };
  assert.equal(parsed.error.code, code, what);
  assert.ok(parsed.error.message.length > 0, what);
  assert.doesNotMatch(parsed.error.message, /\n\s+at /, "no stack trace");
  return parsed.error.message;
}

/**
 * The whole tree as SQLite holds it is sound: every parent exists, in the same chat, stored before
 * its child (so no cycle can form), and every chat's leaf is one of its own rows.
 */
function assertTreeSound(db: Db): void {
  const rows = db.prepare("SELECT id, chat_id, parent_id, seq FROM messages").all() as {
    id: string;
    chat_id: string;
    parent_id: string | null;
    seq: number;
  }[];
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    if (row.parent_id === null) continue;
    const parent = byId.get(row.parent_id);
    assert.ok(parent, `${row.id}'s parent ${row.parent_id} exists`);
    assert.equal(parent.chat_id, row.chat_id, `${row.id}'s parent is in its chat`);
    assert.ok(parent.seq < row.seq, `${row.id} was stored after its parent`);
  }
  for (const chat of db.prepare("SELECT id, leaf_id FROM chats").all() as { id: string; leaf_id: string | null }[]) {
    if (chat.leaf_id === null) continue;
    assert.equal(byId.get(chat.leaf_id)?.chat_id, chat.id, `chat ${chat.id}'s leaf is one of its rows`);
  }
}

/** Everything stored about messages and branches: equal before and after a refusal. */
function fingerprint(db: Db): string {
  return JSON.stringify([
    db.prepare("SELECT id, chat_id, parent_id, seq, role, content, status, meta_json FROM messages ORDER BY id").all(),
    db.prepare("SELECT id, leaf_id, title, model_id FROM chats ORDER BY id").all(),
  ]);
}

/** A path as `GET /api/chats/:id` answers it: a chain from a root to the chat's leaf, all of this chat. */
function assertPathChain(chat: ChatRead): void {
  chat.messages.forEach((m, i) => {
    assert.equal(m.chatId, chat.id);
    assert.equal(m.parentId, i === 0 ? null : chat.messages[i - 1]!.id, `message ${i} follows the one before`);
    assert.ok(m.siblings.includes(m.id) && m.siblings[m.siblingIndex] === m.id, `message ${i}'s versions`);
  });
  assert.equal(chat.leafId, chat.messages.at(-1)?.id ?? null, "the path ends at the leaf");
}

/** An upstream request every vendor takes: each tool result answers a call of the step right before. */
function assertWellFormed(messages: Wire[]): void {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === "tool") {
      assert.ok(open.delete(m.tool_call_id!), `a result of an open call: ${JSON.stringify(m).slice(0, 200)}`);
      continue;
    }
    assert.equal(open.size, 0, `every call is answered before the next message: ${[...open].join(",")}`);
    for (const call of m.tool_calls ?? []) open.add(call.id);
  }
  assert.equal(open.size, 0, "the last step's calls are answered");
}

const contents = (messages: Stored[]) => messages.map((m) => m.content);

describe("attack: the conversation tree", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let db: Db;
  beforeEach(async () => {
    f = await startChatFixture();
    db = f.s.runtime.db;
    fs.writeFileSync(path.join(f.s.projectDir, "notes.md"), "needle: the notes file\n");
    fs.writeFileSync(path.join(f.s.projectDir, "a.txt"), "alpha\n");
    fs.writeFileSync(path.join(f.s.projectDir, "b.txt"), "beta\n");
    assert.equal((await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } })).status, 200);
  });
  afterEach(async () => {
    assertTreeSound(db);
    await f.stop();
  });

  async function turn(chatId: string, body: Record<string, unknown>, answer?: string) {
    if (answer !== undefined) f.gateway.enqueue({ kind: "reply", text: answer });
    const res = await send(f, chatId, body);
    assert.equal(res.status, 200, `${await res.clone().text()}\n${f.s.logLines.join("\n")}`);
    const events = await readEvents(res);
    assert.deepEqual(
      events.filter((e) => e.event === "error"),
      [],
      JSON.stringify(events.map((e) => e.event)),
    );
    if (answer !== undefined) assert.equal(text(events), answer);
    return events;
  }
  async function read(chatId: string, query = ""): Promise<ChatRead> {
    const res = await f.s.api("GET", `/api/chats/${chatId}${query}`);
    assert.equal(res.status, 200, await res.clone().text());
    return res.json();
  }
  const patch = (chatId: string, body: unknown) => f.s.api("PATCH", `/api/chats/${chatId}`, body);
  const fork = (chatId: string, body: unknown) => f.s.api("POST", `/api/chats/${chatId}/fork`, body);
  const lastRequest = () => (f.gateway.completions.at(-1)!.body as { messages: Wire[] }).messages;
  const conversationOf = (messages: Wire[]) => messages.filter((m) => m.role !== "system");

  /** Runs `attacks`, each of which must be refused, and checks nothing was stored or sent. */
  async function nothingChanges(chatId: string, attacks: () => Promise<void>): Promise<void> {
    const before = fingerprint(db);
    const shown = await read(chatId);
    const sent = f.gateway.completions.length;
    await attacks();
    assert.equal(fingerprint(db), before, "nothing stored");
    assert.deepEqual(await read(chatId), shown, "the chat reads as before");
    assert.equal(f.gateway.completions.length, sent, "nothing sent upstream");
  }

  /** Q1 → A1, Q2 (with notes.md) → A2, a step calling the file tool twice → its results → A3. */
  async function richChat() {
    const chat = await newChat(f, { modelId: "fake/tools" });
    await turn(chat.id, { content: "Q1" }, "A1");
    await turn(chat.id, { content: "Q2", referencedPaths: ["notes.md"] }, "A2");
    f.gateway.enqueue({
      kind: "reply",
      text: "Reading both. ",
      toolCalls: [
        { name: "file", arguments: { action: "read", path: "a.txt" } },
        { name: "file", arguments: { action: "read", path: "b.txt" } },
      ],
    });
    f.gateway.enqueue({ kind: "reply", text: "A3" });
    await turn(chat.id, { content: "Q3" });
    const messages = (await read(chat.id)).messages;
    const [q1, a1, file, q2, a2, q3, step, t1, t2, a3] = messages;
    assert.deepEqual(
      messages.map((m) => m.role),
      ["user", "assistant", "user", "user", "assistant", "user", "assistant", "tool", "tool", "assistant"],
    );
    assert.equal(file!.meta?.kind, "file");
    assert.equal(step!.meta?.toolCalls?.length, 2);
    return {
      chatId: chat.id,
      q1: q1!,
      a1: a1!,
      file: file!,
      q2: q2!,
      a2: a2!,
      q3: q3!,
      step: step!,
      t1: t1!,
      t2: t2!,
      a3: a3!,
    };
  }

  describe("ids of other chats, and ids that name nothing", () => {
    it("404 in the contract's shape for parentId, regenerate, leafId, fork, paging and compactions; nothing stored or sent", async () => {
      const mine = await richChat();
      const other = await richChat();
      const foreign = [other.q1, other.a1, other.file, other.step, other.t1, other.a3].map((m) => m.id);
      // A lone surrogate: valid in JSON, not in a URL (its UTF-8 bytes go in the huge-values test).
      const loneSurrogate = "m_\ud800";
      await nothingChanges(mine.chatId, async () => {
        for (const id of [
          ...foreign,
          "m_nope",
          "__proto__",
          "constructor",
          "toString",
          "💥",
          "m_\u202e\u0000x",
          loneSurrogate,
        ]) {
          await refused(await send(f, mine.chatId, { content: "x", parentId: id }), 404, "not_found", `parentId ${id}`);
          await refused(await send(f, mine.chatId, { regenerate: id }), 404, "not_found", `regenerate ${id}`);
          await refused(await patch(mine.chatId, { leafId: id }), 404, "not_found", `leafId ${id}`);
          await refused(await fork(mine.chatId, { messageId: id }), 404, "not_found", `fork ${id}`);
          if (id === loneSurrogate) continue;
          const q = encodeURIComponent(id);
          for (const query of [`?before=${q}`, `?limit=5&before=${q}`])
            await refused(await f.s.api("GET", `/api/chats/${mine.chatId}${query}`), 404, "not_found", query);
          await refused(
            await f.s.api("DELETE", `/api/chats/${mine.chatId}/compactions/${q}`),
            404,
            "not_found",
            `undo ${id}`,
          );
        }
        // This chat's own ids through another chat, or through a chat that does not exist.
        for (const chatId of [other.chatId, "c_nope", "__proto__"]) {
          await refused(await fork(chatId, { messageId: mine.a1.id }), 404, "not_found", `fork via ${chatId}`);
          await refused(await patch(chatId, { leafId: mine.a1.id }), 404, "not_found", `leaf via ${chatId}`);
        }
        // The chat list's `before` names a chat: a message id, or nothing, is not one.
        for (const id of [mine.a1.id, "__proto__", "c_nope"])
          await refused(
            await f.s.api("GET", `/api/projects/${f.projectId}/chats?limit=5&before=${id}`),
            404,
            "not_found",
            `chat list before ${id}`,
          );
      });
      // The other chat was not touched either: its leaf did not move.
      assert.equal((await read(other.chatId)).leafId, other.a3.id);
    });
  });

  describe("rows that are not a turn's message", () => {
    it("regenerate naming a user, file, tool or compaction row: 400; naming a tool-calling step answers its question again", async () => {
      const c = await richChat();
      await nothingChanges(c.chatId, async () => {
        for (const row of [c.q1, c.file, c.q2, c.t1, c.t2]) {
          const message = await refused(await send(f, c.chatId, { regenerate: row.id }), 400, "invalid_request");
          assert.match(message, /assistant/);
        }
      });
      // The step that called the tools is an answer of Q3: a new answer of Q3 beside it.
      await turn(c.chatId, { regenerate: c.step.id }, "A3 again");
      const after = (await read(c.chatId)).messages;
      assert.deepEqual(contents(after).slice(-2), ["Q3", "A3 again"]);
      assert.deepEqual(after.at(-1)!.siblings, [c.step.id, after.at(-1)!.id]);
      assert.deepEqual(conversationOf(lastRequest()).at(-1), { role: "user", content: "Q3" });
    });

    it("parentId naming a tool-calling step, one of its two results, or a file row: placed there, and the request stays well-formed", async () => {
      const c = await richChat();
      for (const [parent, answer] of [
        [c.step, "under the step"],
        [c.t1, "under the first result"],
        [c.t2, "under both results"],
        [c.file, "under the file"],
      ] as const) {
        await turn(c.chatId, { content: `edit ${answer}`, parentId: parent.id }, answer);
        const sent = lastRequest();
        assertWellFormed(sent);
        assert.deepEqual(conversationOf(sent).at(-1), { role: "user", content: `edit ${answer}` });
        const after = await read(c.chatId);
        assertPathChain(after);
        assert.equal(after.messages.at(-2)!.parentId, parent.id);
        assert.ok(after.messages.at(-2)!.siblings.length >= 2, "a version beside the row that was there");
      }
      // Under the first result only: the call without its result is left out of what is sent.
      const underFirst = f.gateway.completions.find((r) =>
        JSON.stringify(r.body).includes("edit under the first result"),
      )!.body as { messages: Wire[] };
      const step = underFirst.messages.find((m) => m.tool_calls)!;
      assert.deepEqual(
        step.tool_calls!.map((call) => call.id),
        [c.t1.meta!.callId],
      );
      // The file's text went with the edit made under it.
      const underFile = f.gateway.completions.at(-1)!.body as { messages: Wire[] };
      assert.ok(JSON.stringify(underFile.messages).includes("needle: the notes file"));
    });

    it("leafId naming a tool row shows its branch down to the newest message under it", async () => {
      const c = await richChat();
      await turn(c.chatId, { content: "Q1'", parentId: c.q1.id }, "A1'");
      const res = await patch(c.chatId, { leafId: c.t1.id });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).leafId, c.a3.id);
      const shown = await read(c.chatId);
      assertPathChain(shown);
      assert.equal(shown.messages.at(-1)!.id, c.a3.id);
    });

    it("null parentId with referenced files: a new first turn, its file row a root beside the old first message", async () => {
      const c = await richChat();
      await turn(c.chatId, { content: "fresh start", parentId: null, referencedPaths: ["notes.md"] }, "F");
      const after = await read(c.chatId);
      assertPathChain(after);
      assert.deepEqual(
        after.messages.map((m) => m.role),
        ["user", "user", "assistant"],
      );
      const [file, question] = after.messages;
      assert.equal(file!.meta?.kind, "file");
      assert.equal(file!.parentId, null);
      assert.deepEqual(file!.siblings, [c.q1.id, file!.id]);
      assert.deepEqual(question!.meta?.referencedPaths, ["notes.md"]);
      const sent = conversationOf(lastRequest());
      assert.equal(sent.length, 2);
      assert.match(String(sent[0]!.content), /needle: the notes file/);
      // Editing that message again (naming it) goes before its file row: a third first version.
      await turn(c.chatId, { content: "fresh start, no file", parentId: question!.id }, "G");
      const again = await read(c.chatId);
      assert.deepEqual(contents(again.messages), ["fresh start, no file", "G"]);
      assert.deepEqual(again.messages[0]!.siblings, [c.q1.id, file!.id, again.messages[0]!.id]);
      assert.deepEqual(conversationOf(lastRequest()), [{ role: "user", content: "fresh start, no file" }]);
      // Every old version is still one switch away.
      assert.equal((await patch(c.chatId, { leafId: c.q1.id })).status, 200);
      assert.equal((await read(c.chatId)).leafId, c.a3.id);
    });
  });

  describe("a subagent's rows", () => {
    beforeEach(async () => {
      fs.writeFileSync(
        path.join(f.s.projectDir, ".app.json"),
        JSON.stringify({
          agents: [{ name: "reviewer", description: "Reviews", model: "fake/tools", tools: ["shell"] }],
          toolGates: { shell: "allow" },
        }),
      );
      await f.s.api("PATCH", "/api/settings/app", { toolGates: { shell: "allow", file: "allow" } });
    });

    it("regenerate of a subagent's row is 400; leafId and parentId through it keep the tree and the request sound", async () => {
      const chat = await newChat(f, { modelId: "fake/tools" });
      await turn(chat.id, { content: "Q0" }, "A0");
      f.gateway.enqueue({
        kind: "reply",
        toolCalls: [{ name: "subagent", arguments: { agent: "reviewer", task: "shell: echo nested-run" } }],
      });
      await turn(chat.id, { content: "delegate" });
      const messages = (await read(chat.id)).messages;
      const inner = messages.find((m) => m.meta?.parentCallId)!;
      assert.ok(inner, JSON.stringify(messages.map((m) => [m.role, m.meta])));
      const outer = messages.find((m) => m.role === "tool" && m.meta?.name === "subagent")!;
      const last = messages.at(-1)!;

      await nothingChanges(chat.id, async () => {
        for (const row of [inner, outer])
          await refused(await send(f, chat.id, { regenerate: row.id }), 400, "invalid_request", row.id);
      });
      const res = await patch(chat.id, { leafId: inner.id });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).leafId, last.id, "down to the newest message under it");

      // A message put under the subagent's own row: its call has no result on that branch, so the
      // step that called it goes up without the call, and the inner call never goes up.
      await turn(chat.id, { content: "under the subagent's row", parentId: inner.id }, "S");
      const sent = lastRequest();
      assertWellFormed(sent);
      assert.ok(!JSON.stringify(sent).includes(inner.meta!.callId), "the inner call stays inside its card");
      assertPathChain(await read(chat.id));
    });
  });

  describe("compaction entries", () => {
    /** A few turns of 2 KB answers, then Compact now: the entry is the leaf. */
    async function compactedChat() {
      const chat = await newChat(f, { modelId: "fake/tools" });
      await turn(chat.id, { content: "Remember this.\nneedle: the owl is named Ada" });
      for (let i = 0; i < 4; i++) await turn(chat.id, { content: `turn ${i} ${"words and more words ".repeat(100)}` });
      const res = await f.s.api("POST", `/api/chats/${chat.id}/compact`);
      assert.equal(res.status, 200, await res.clone().text());
      const entry = (await res.json()) as Stored;
      assert.equal((await read(chat.id)).leafId, entry.id);
      return { chatId: chat.id, entry };
    }

    it("regenerate naming it is 400; a message under it sends the summary; a fork of it keeps the summary working", async () => {
      const { chatId, entry } = await compactedChat();
      await nothingChanges(chatId, async () => {
        await refused(await send(f, chatId, { regenerate: entry.id }), 400, "invalid_request");
      });
      await turn(chatId, { content: "after the summary", parentId: entry.id }, "ok");
      assert.ok(conversationOf(lastRequest()).some((m) => String(m.content).startsWith(SUMMARY_HEADER)));

      const res = await fork(chatId, { messageId: entry.id });
      assert.equal(res.status, 201, await res.clone().text());
      const forked = await read((await res.json()).id);
      assertPathChain(forked);
      const copy = forked.messages.at(-1)!;
      assert.equal(copy.role, "compaction");
      assert.notEqual(copy.id, entry.id);
      // Its `through` names the copy of the row it covers, so the fork sends the summary too.
      assert.ok(
        forked.messages.some((m) => m.id === copy.meta!.through),
        "through follows its row",
      );
      await turn(forked.id, { content: "in the fork" }, "fine");
      const sent = conversationOf(lastRequest());
      assert.ok(
        sent.some((m) => String(m.content).startsWith(SUMMARY_HEADER)),
        "the fork sends the summary",
      );
      assert.ok(!sent.some((m) => String(m.content).startsWith("turn 0 ")), "and not what it covers");
    });

    it("undo on a branched chat: its children move up to its parent, the other branches stay as they were", async () => {
      const { chatId, entry } = await compactedChat();
      const before = (await read(chatId)).messages;
      const parentOfEntry = entry.parentId!;
      await turn(chatId, { content: "X1 after the entry" }, "X1");
      const x1 = (await read(chatId)).messages.at(-2)!;
      await turn(chatId, { content: "X2 beside X1", parentId: entry.id }, "X2");
      const x2 = (await read(chatId)).messages.at(-2)!;
      // A branch that does not go through the entry: an edit of the second turn.
      await turn(chatId, { content: "B, an early edit", parentId: before[2]!.id }, "B");
      const branchB = (await read(chatId)).messages;
      const rowsOf = (ids: string[]) =>
        db
          .prepare(`SELECT id, parent_id FROM messages WHERE id IN (${ids.map(() => "?").join(",")}) ORDER BY id`)
          .all(...ids);
      const bRows = rowsOf(branchB.map((m) => m.id));

      // Undo while branch B is shown: B does not move.
      const undo = await f.s.api("DELETE", `/api/chats/${chatId}/compactions/${entry.id}`);
      assert.equal(undo.status, 204, await undo.clone().text());
      assert.deepEqual(rowsOf(branchB.map((m) => m.id)), bRows, "branch B untouched");
      assert.equal((await read(chatId)).leafId, branchB.at(-1)!.id, "still showing branch B");
      for (const child of [x1, x2]) {
        const row = db.prepare("SELECT parent_id FROM messages WHERE id = ?").get(child.id) as { parent_id: string };
        assert.equal(row.parent_id, parentOfEntry, "moved up to the entry's parent");
      }
      assert.equal((await patch(chatId, { leafId: x1.id })).status, 200);
      const shown = await read(chatId);
      assertPathChain(shown);
      assert.deepEqual(contents(shown.messages), [...contents(before.slice(0, -1)), "X1 after the entry", "X1"]);
      assert.deepEqual(shown.messages.at(-2)!.siblings, [x1.id, x2.id], "X1 and X2 are versions of each other");
      // The entry is gone from every branch: the next request sends the covered turns again.
      await turn(chatId, { content: "and now?" }, "whole again");
      const sent = conversationOf(lastRequest());
      assert.ok(sent.some((m) => String(m.content).startsWith("turn 0 ")));
      assert.ok(!sent.some((m) => String(m.content).startsWith(SUMMARY_HEADER)));
    });

    it("a version switch while Compact now runs is 409: the entry goes on the path it summarised", async () => {
      const chat = await newChat(f, { modelId: "fake/tools" });
      await turn(chat.id, { content: "Remember this.\nneedle: the owl is named Ada" });
      for (let i = 0; i < 4; i++) await turn(chat.id, { content: `turn ${i} ${"words and more words ".repeat(100)}` });
      const shown = (await read(chat.id)).messages;
      const a4 = shown.at(-1)!;
      await turn(chat.id, { regenerate: a4.id }, "another answer");
      const other = (await read(chat.id)).leafId!;
      assert.equal((await patch(chat.id, { leafId: a4.id })).status, 200);
      // A slow summary: the switch comes while it is written.
      f.gateway.enqueue({ kind: "reply", text: "Summary: needle: the owl is named Ada, and more.", delayMs: 80 });
      const compacting = f.s.api("POST", `/api/chats/${chat.id}/compact`);
      await until(
        () => f.gateway.completions.length,
        (n) => n > 0 && JSON.stringify(f.gateway.completions.at(-1)!.body).includes("handoff"),
        "the summary request left",
      );
      await refused(await patch(chat.id, { leafId: other }), 409, "conflict", "switch while compacting");
      const done = await compacting;
      assert.equal(done.status, 200, await done.clone().text());
      const entry = (await done.json()) as Stored;
      assert.equal(entry.parentId, a4.id, "under the path it summarised");
      assert.equal((await read(chat.id)).leafId, entry.id);
    });
  });

  describe("mid-turn", () => {
    it("a fork while the answer streams copies the path as it stands; the turn goes on untouched", async () => {
      const chat = await newChat(f, { modelId: "fake/echo" });
      await turn(chat.id, { content: "Q1" }, "A1");
      f.gateway.enqueue({ kind: "reply", pieces: ["slow ", "answer ", "here"], delayMs: 150 });
      const res = await send(f, chat.id, { content: "Q2" });
      assert.equal(res.status, 200);
      let assistantId = "";
      const forks: Promise<Response>[] = [];
      const events = await readEvents(res, (event) => {
        if (event.event === "turn.start") assistantId = event.data.messageId;
        if (event.event === "text.delta" && forks.length === 0) {
          // The turn's question: the row stored right before its answer.
          const rows = db.prepare("SELECT id FROM messages WHERE chat_id = ? ORDER BY seq").all(chat.id) as {
            id: string;
          }[];
          forks.push(fork(chat.id, { messageId: assistantId }), fork(chat.id, { messageId: rows.at(-2)!.id }));
        }
      });
      assert.equal(text(events), "slow answer here");
      const [ofAnswer, ofQuestion] = await Promise.all(forks);
      assert.equal(ofAnswer!.status, 201, await ofAnswer!.clone().text());
      assert.equal(ofQuestion!.status, 201);
      const answerFork = await read((await ofAnswer!.json()).id);
      assertPathChain(answerFork);
      assert.deepEqual(contents(answerFork.messages).slice(0, 3), ["Q1", "A1", "Q2"]);
      const copy = answerFork.messages.at(-1)!;
      assert.equal(copy.role, "assistant");
      assert.equal(copy.status, "interrupted", "a copy of an answer being written is not left streaming");
      assert.equal(copy.usage, null);
      const questionFork = await read((await ofQuestion!.json()).id);
      assert.deepEqual(contents(questionFork.messages), ["Q1", "A1", "Q2"]);
      // The original finished as if nothing happened; the copies did not follow it.
      const original = await read(chat.id);
      assert.deepEqual(contents(original.messages), ["Q1", "A1", "Q2", "slow answer here"]);
      assert.equal(original.messages.at(-1)!.status, "complete");
      assert.equal((await read(answerFork.id)).messages.at(-1)!.status, "interrupted");
      // The fork answers at once: it is not "already answering".
      await turn(answerFork.id, { content: "go on" }, "went on");
    });

    it("cancel mid-regenerate: the cut answer stays a version beside the old one, and Retry works again", async () => {
      const chat = await newChat(f, { modelId: "fake/echo" });
      await turn(chat.id, { content: "Q1" }, "A1");
      const [q1, a1] = (await read(chat.id)).messages;
      f.gateway.enqueue({ kind: "reply", pieces: ["partial ", "never ", "finished"], delayMs: 300 });
      const res = await send(f, chat.id, { regenerate: a1!.id });
      assert.equal(res.status, 200);
      let cancelled: Promise<Response> | undefined;
      const events = await readEvents(res, (event) => {
        if (event.event === "text.delta" && !cancelled) cancelled = f.s.api("POST", `/api/chats/${chat.id}/cancel`);
      });
      assert.equal((await cancelled!).status, 204);
      assert.equal(events.at(-1)!.event, "turn.end");
      assert.equal(events.at(-1)!.data.finishReason, "cancelled");
      const after = await read(chat.id);
      assertPathChain(after);
      assert.equal(after.messages.length, 2, "no user message was added");
      assert.equal(after.messages[0]!.id, q1!.id);
      const cut = after.messages[1]!;
      assert.equal(cut.status, "cancelled");
      assert.deepEqual(cut.siblings, [a1!.id, cut.id]);
      await turn(chat.id, { regenerate: cut.id }, "A1 third");
      const third = (await read(chat.id)).messages[1]!;
      assert.deepEqual(third.siblings, [a1!.id, cut.id, third.id]);
      assert.deepEqual(conversationOf(lastRequest()), [{ role: "user", content: "Q1" }]);
    });
  });

  describe("races", () => {
    it("two edits at once with different parents: one 200, one 409, the loser stored nowhere", async () => {
      const chat = await newChat(f, { modelId: "fake/echo" });
      await turn(chat.id, { content: "Q1" }, "A1");
      await turn(chat.id, { content: "Q2" }, "A2");
      const [q1, a1, q2, a2] = (await read(chat.id)).messages;
      const pairs: Record<string, unknown>[][] = [
        [
          { content: "race edit one", parentId: q2!.id },
          { content: "race edit two", parentId: q1!.id },
        ],
        [{ content: "race plain send" }, { content: "race edit three", parentId: a1!.id }],
        [{ regenerate: a2!.id }, { content: "race edit four", parentId: null }],
      ];
      for (const [first, second] of pairs) {
        // A slow answer: the winner is still running when the loser is refused.
        f.gateway.enqueue({ kind: "reply", pieces: ["won ", "the ", "race"], delayMs: 100 });
        const sent = f.gateway.completions.length;
        const results = await Promise.all([send(f, chat.id, first!), send(f, chat.id, second!)]);
        const statuses = results.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 409], JSON.stringify([first, second]));
        const winner = results.find((r) => r.status === 200)!;
        const loser = results.find((r) => r.status === 409)!;
        assert.match(await refused(loser, 409, "conflict"), /already answering/);
        assert.equal(text(await readEvents(winner)), "won the race");
        assert.equal(f.gateway.completions.length, sent + 1, "only the winner went upstream");
        const loserBody = results[0] === loser ? first! : second!;
        if (typeof loserBody.content === "string") {
          const stored = db.prepare("SELECT count(*) AS n FROM messages WHERE content = ?").get(loserBody.content) as {
            n: number;
          };
          assert.equal(stored.n, 0, "the loser's message is stored nowhere");
        }
        assertPathChain(await read(chat.id));
        assertTreeSound(db);
      }
    });

    it("a version switch racing a send, with and without a prompt change: the send's rows stay on the branch it answered", async () => {
      const chat = await newChat(f, { modelId: "fake/tools" });
      await turn(chat.id, { content: "Q1" }, "A1");
      const [q1] = (await read(chat.id)).messages;
      await turn(chat.id, { content: "Q1 edited", parentId: q1!.id }, "A1 edited");
      // A built-in prompt profile: checking it reads the project's settings (an await) before the switch.
      const profiles = (await (await f.s.api("GET", "/api/prompts/defaults")).json()) as { id: string }[];
      const promptId = profiles[0]!.id;
      for (let round = 0; round < 16; round++) {
        const first = (await read(chat.id)).messages[0]!;
        const target = first.siblings.find((id) => id !== first.id)!;
        // A tool turn: a second step and a result are stored after the turn started.
        f.gateway.enqueue({
          kind: "reply",
          text: "Reading. ",
          toolCalls: [{ name: "file", arguments: { action: "read", path: "a.txt" } }],
          delayMs: 30,
        });
        f.gateway.enqueue({ kind: "reply", pieces: ["round ", `${round}`], delayMs: 30 });
        const body = round % 2 === 0 ? { leafId: target } : { leafId: target, promptId };
        const sending = send(f, chat.id, { content: `round ${round}` });
        await new Promise((resolve) => setTimeout(resolve, round % 8));
        const switched = await patch(chat.id, body);
        assert.ok([200, 409].includes(switched.status), `${switched.status} ${await switched.clone().text()}`);
        if (switched.status === 409) await refused(switched, 409, "conflict");
        const res = await sending;
        assert.equal(res.status, 200);
        const events = await readEvents(res);
        const start = events.find((e) => e.event === "turn.start")!.data;
        // Whatever the order, the turn's rows are one chain on the branch shown at its end.
        const shown = await read(chat.id);
        assertPathChain(shown);
        const ofTurn = shown.messages.filter((m) => m.meta?.turnId === start.turnId);
        assert.equal(ofTurn.length, 3, `round ${round}: step, result, answer on the path`);
        assert.equal(shown.messages.at(-1)!.meta?.turnId, start.turnId, `round ${round}: the turn ends the path`);
        assert.equal(shown.messages.at(-4)!.content, `round ${round}`);
        assertWellFormed(lastRequest());
        assertTreeSound(db);
      }
    });
  });

  describe("a version switch held up by its prompt lookup", () => {
    it("is refused (409) when a turn started meanwhile: the turn's rows stay one chain", async () => {
      const chat = await newChat(f, { modelId: "fake/tools" });
      await turn(chat.id, { content: "Q1" }, "A1");
      const [q1] = (await read(chat.id)).messages;
      await turn(chat.id, { content: "Q1 edited", parentId: q1!.id }, "A1 edited");
      const promptBefore = ((await read(chat.id)) as ChatRead & { promptId: string | null }).promptId;
      const profiles = (await (await f.s.api("GET", "/api/prompts/defaults")).json()) as { id: string }[];
      const promptId = profiles.find((p) => p.id !== promptBefore)!.id;
      // The next read of the project's settings (the switch's prompt lookup) waits for the test: a
      // slow disk, held open while a turn starts.
      const settings = f.s.runtime.settings;
      const original = settings.snapshot.bind(settings);
      let release!: () => void;
      let held: Promise<void> | undefined = new Promise<void>((resolve) => (release = resolve));
      settings.snapshot = async (project) => {
        const wait = held;
        held = undefined;
        if (wait) await wait;
        return original(project);
      };
      const switching = patch(chat.id, { leafId: q1!.id, promptId });
      await until(
        () => held === undefined,
        (taken) => taken,
        "the switch is reading the settings",
      );

      f.gateway.enqueue({
        kind: "reply",
        text: "Reading. ",
        toolCalls: [{ name: "file", arguments: { action: "read", path: "a.txt" } }],
        delayMs: 50,
      });
      f.gateway.enqueue({ kind: "reply", text: "done reading", delayMs: 20 });
      const res = await send(f, chat.id, { content: "a turn" });
      assert.equal(res.status, 200);
      let turnId = "";
      await readEvents(res, (event) => {
        if (event.event !== "turn.start") return;
        turnId = event.data.turnId;
        release();
      });
      await refused(await switching, 409, "conflict", "a switch that would move the leaf under a running turn");
      const shown = await read(chat.id);
      assertPathChain(shown);
      assert.deepEqual(contents(shown.messages).slice(0, 3), ["Q1 edited", "A1 edited", "a turn"]);
      assert.deepEqual(
        shown.messages.slice(3).map((m) => m.role),
        ["assistant", "tool", "assistant"],
      );
      assert.equal(shown.messages.at(-1)!.content, "done reading");
      assert.deepEqual(
        shown.messages.slice(3).map((m) => m.meta?.turnId),
        [turnId, turnId, turnId],
        "the step, its result and the answer on the branch the turn answered",
      );
      const promptAfter = ((await read(chat.id)) as ChatRead & { promptId: string | null }).promptId;
      assert.equal(promptAfter, promptBefore, "nothing of the refused PATCH was applied");
    });
  });

  describe("huge and odd values", () => {
    it("10,000-character ids, wrong types, prototype keys and broken encodings: 4xx, nothing stored", async () => {
      const c = await richChat();
      const huge = "m_" + "x".repeat(10_000);
      await nothingChanges(c.chatId, async () => {
        for (const body of [
          { content: "x", parentId: huge },
          { regenerate: huge },
          { content: "x", parentId: 42 },
          { content: "x", parentId: { id: c.q1.id } },
          { content: "x", parentId: [c.q1.id] },
          { content: "x", parentId: "" },
          { regenerate: c.a1.id, parentId: c.q1.id },
          { regenerate: c.a1.id, referencedPaths: ["notes.md"] },
          { regenerate: "" },
          { regenerate: null },
          { content: "x", parentId: c.q1.id, extra: true },
        ])
          await refused(await send(f, c.chatId, body), 400, "invalid_request", JSON.stringify(body).slice(0, 60));
        for (const body of [{ leafId: huge }, { leafId: "" }, { leafId: null }, { leafId: 7 }, { leafId: [c.a1.id] }])
          await refused(await patch(c.chatId, body), 400, "invalid_request", JSON.stringify(body).slice(0, 60));
        for (const body of [{ messageId: huge }, {}, { messageId: c.a1.id, title: "x" }, { messageId: null }])
          await refused(await fork(c.chatId, body), 400, "invalid_request", JSON.stringify(body).slice(0, 60));
        for (const query of [
          `?before=${huge}`,
          "?limit=0",
          "?limit=501",
          "?limit=-1",
          "?limit=1.5",
          "?limit=Infinity",
          "?limit=abc",
          `?limit=5&before=`,
          `?before=${c.a1.id}&before=${c.q1.id}`,
          "?before=%ED%A0%80&limit=%E0%A4%A",
        ])
          await refused(await f.s.api("GET", `/api/chats/${c.chatId}${query}`), 400, "invalid_request", query);
        // Raw bodies: a prototype key, deep nesting, and something that is not JSON.
        for (const raw of [
          `{"__proto__": {"parentId": "${c.q1.id}"}, "content": "proto"}`,
          `{"constructor": {"prototype": {"parentId": "x"}}, "content": "proto"}`,
          `${"[".repeat(50_000)}${"]".repeat(50_000)}`,
          `{"content": "x", "parentId": "${c.q1.id}"`,
        ]) {
          const res = await fetch(`${f.s.url}/api/chats/${c.chatId}/messages/stream`, {
            method: "POST",
            headers: { authorization: `Bearer ${f.s.token}`, "content-type": "application/json" },
            body: raw,
          });
          await refused(res, 400, "invalid_request", raw.slice(0, 40));
          const leaf = await f.s.api("PATCH", `/api/chats/${c.chatId}`, raw.replace('"content"', '"title"'));
          assert.ok(leaf.status >= 400 && leaf.status < 500, `PATCH ${raw.slice(0, 40)}: ${leaf.status}`);
        }
        // Ids in the path: huge, unicode, prototype names, a broken percent-encoding.
        for (const id of [huge, encodeURIComponent("💥\u202e"), "__proto__", "%E0%A4%A", "%ED%A0%80", "%00"]) {
          const res = await f.s.api("POST", `/api/chats/${id}/fork`, { messageId: c.a1.id });
          assert.ok([400, 404].includes(res.status), `fork via ${id.slice(0, 20)}: ${res.status}`);
          await refused(res, res.status, res.status === 400 ? "invalid_request" : "not_found");
          const get = await f.s.api("GET", `/api/chats/${id}?limit=5`);
          assert.ok([400, 404].includes(get.status), `GET ${id.slice(0, 20)}: ${get.status}`);
        }
      });
    });
  });

  describe("paging over a tree", () => {
    it("walking `before` from the leaf gives back exactly the path, at every page size, on every branch", async () => {
      const chat = await newChat(f, { modelId: "fake/tools" });
      for (let i = 1; i <= 6; i++) await turn(chat.id, { content: `Q${i}` }, `A${i}`);
      let shown = (await read(chat.id)).messages;
      await turn(chat.id, { content: "Q3 edited", parentId: shown[4]!.id }, "A3 edited");
      await turn(chat.id, { content: "Q4 on the edit", referencedPaths: ["notes.md"] }, "A4 on the edit");
      shown = (await read(chat.id)).messages;
      await turn(chat.id, { regenerate: shown.at(-1)!.id }, "A4 again");
      await turn(chat.id, { content: "Q2 edited", parentId: shown[1]!.id }, "A2 edited");
      f.gateway.enqueue({
        kind: "reply",
        toolCalls: [{ name: "file", arguments: { action: "read", path: "a.txt" } }],
      });
      await turn(chat.id, { content: "read a.txt" });

      const walk = async (limit: number) => {
        const pages: Stored[][] = [];
        let page = await read(chat.id, `?limit=${limit}`);
        pages.unshift(page.messages);
        while (page.hasMore) {
          assert.ok(page.messages.length === limit, "a page short of its limit says it is the last");
          page = await read(chat.id, `?limit=${limit}&before=${page.messages[0]!.id}`);
          pages.unshift(page.messages);
          assert.ok(pages.length < 100, "the walk ends");
        }
        return pages.flat();
      };
      const leaves = [(await read(chat.id)).leafId!, shown.at(-1)!.id, shown[5]!.id, shown[0]!.id];
      for (const leaf of leaves) {
        assert.equal((await patch(chat.id, { leafId: leaf })).status, 200);
        const whole = await read(chat.id);
        assertPathChain(whole);
        for (const limit of [1, 2, 3, 5, 7, 500]) {
          const walked = await walk(limit);
          assert.deepEqual(
            walked.map((m) => m.id),
            whole.messages.map((m) => m.id),
            `limit ${limit}: no duplicate, no gap`,
          );
          assert.deepEqual(walked, whole.messages, `limit ${limit}: the same versions as the whole read`);
        }
        // `before` alone: everything before it.
        const mid = whole.messages[Math.floor(whole.messages.length / 2)]!;
        const older = await read(chat.id, `?before=${mid.id}`);
        assert.deepEqual(
          older.messages.map((m) => m.id),
          whole.messages.slice(0, whole.messages.indexOf(mid)).map((m) => m.id),
        );
        assert.equal(older.hasMore, false);
      }
    });
  });

  describe("usage after a fork", () => {
    it("the fork carries no usage: the chat's totals and GET /api/usage count each turn once", async () => {
      const c = await richChat();
      await turn(c.chatId, { regenerate: c.a1.id }, "A1 again");
      const q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
      const usage = async () => (await (await f.s.api("GET", `/api/usage?groupBy=model&${q}`)).json()) as any[];
      const ledgerBefore = await usage();
      const totalsBefore = (await read(c.chatId)).usage;
      assert.ok(totalsBefore.totalTokens > 0);
      // Every branch counts once in the chat's totals: both versions of A1 were paid for.
      const stored = db
        .prepare("SELECT usage_json FROM messages WHERE chat_id = ? AND usage_json IS NOT NULL")
        .all(c.chatId) as { usage_json: string }[];
      assert.equal(totalsBefore.turns, stored.length);

      // Fork the original branch, end to end.
      assert.equal((await patch(c.chatId, { leafId: c.a3.id })).status, 200);
      const res = await fork(c.chatId, { messageId: c.a3.id });
      assert.equal(res.status, 201);
      const forked = await read((await res.json()).id);
      assert.equal(forked.messages.length, 10);
      assert.ok(forked.messages.every((m) => m.usage === null && m.meta?.turnId === undefined));
      assert.equal(forked.usage.totalTokens, 0);
      assert.equal(forked.usage.turns, 0);
      assert.deepEqual(await (await f.s.api("GET", `/api/chats/${forked.id}/requests`)).json(), []);
      assert.deepEqual(await usage(), ledgerBefore, "the ledger did not grow");
      assert.deepEqual((await read(c.chatId)).usage, totalsBefore, "the original's totals did not change");

      // A turn in the fork adds that turn, and only it.
      const events = await turn(forked.id, { content: "in the fork" }, "forked answer");
      const spent = events.filter((e) => e.event === "usage").reduce((sum, e) => sum + e.data.totalTokens, 0);
      assert.ok(spent > 0);
      assert.equal((await read(forked.id)).usage.totalTokens, spent);
      const after = await usage();
      const sum = (rows: any[]) => rows.reduce((s, r) => s + r.promptTokens + r.completionTokens, 0);
      assert.equal(sum(after) - sum(ledgerBefore), spent);
    });
  });
});

describe("attack: a kill -9 in the middle of an edit", function () {
  this.timeout(120_000);
  let root: string;
  let gateway: FakeGateway;
  let cli: CliProcess | undefined;
  before(async () => {
    root = makeTempDir();
    gateway = await new FakeGateway().start();
  });
  after(async () => {
    if (cli && cli.child.exitCode === null && cli.child.signalCode === null) {
      cli.child.kill("SIGKILL");
      await cli.exited;
    }
    await gateway.stop();
    removeDir(root);
  });

  it("after the restart the edit is a version beside the old message, its cut answer interrupted, both branches whole", async () => {
    const project = path.join(root, "proj");
    const home = path.join(root, "home");
    fs.mkdirSync(project);
    const env = { APP_GATEWAY_BASE_URL: gateway.baseUrl, APP_GATEWAY_AUTH_URL: gateway.authUrl };
    const serve = ["serve", "--project", project, "--home", home, "--port", "0"];
    cli = await startCli(serve, env);
    const api = (c: CliProcess, method: string, route: string, body?: unknown) =>
      fetch(`${c.ready.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${c.ready.token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    assert.equal(
      (await api(cli, "PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: TEST_KEY }] })).status,
      200,
    );
    const projectId = cli.ready.projects[0]!.id;
    const chat = await (await api(cli, "POST", `/api/projects/${projectId}/chats`, { modelId: "fake/echo" })).json();
    const say = async (body: Record<string, unknown>) => {
      const res = await api(cli!, "POST", `/api/chats/${chat.id}/messages/stream`, body);
      assert.equal(res.status, 200);
      return res;
    };
    await readEvents(await say({ content: "Q1" }));
    await readEvents(await say({ content: "Q2" }));
    const before = (await (await api(cli, "GET", `/api/chats/${chat.id}`)).json()) as ChatRead;
    const [, , q2, a2] = before.messages;

    // The edit's answer streams slowly; the server dies after its first words.
    gateway.enqueue({ kind: "reply", pieces: ["cut ", "off ", "here ", "never"], delayMs: 400 });
    const res = await say({ content: "Q2 edited", parentId: q2!.id });
    const killed = new Promise<void>((resolve) => {
      void readEvents(res, (event: ReceivedEvent) => {
        if (event.event === "text.delta") {
          cli!.child.kill("SIGKILL");
          resolve();
        }
      });
    });
    await killed;
    await cli.exited;

    cli = await startCli(serve, env);
    const after = (await (await api(cli, "GET", `/api/chats/${chat.id}`)).json()) as ChatRead;
    assertPathChain(after);
    assert.deepEqual(contents(after.messages).slice(0, 3), ["Q1", "You said: Q1", "Q2 edited"]);
    const edited = after.messages[2]!;
    assert.deepEqual(edited.siblings, [q2!.id, edited.id]);
    assert.equal(after.messages[3]!.status, "interrupted");
    // The old branch is whole, and the chat goes on from the interrupted one.
    assert.equal((await api(cli, "PATCH", `/api/chats/${chat.id}`, { leafId: q2!.id })).status, 200);
    const old = (await (await api(cli, "GET", `/api/chats/${chat.id}`)).json()) as ChatRead;
    assert.deepEqual(
      old.messages.map((m) => m.id),
      before.messages.map((m) => m.id),
    );
    assert.equal(old.leafId, a2!.id);
    const cut = after.messages[3]!;
    assert.equal(text(await readEvents(await say({ content: "Q3", parentId: cut.id }))), "You said: Q3");
    const goneOn = (await (await api(cli, "GET", `/api/chats/${chat.id}`)).json()) as ChatRead;
    assertPathChain(goneOn);
    assert.deepEqual(contents(goneOn.messages).slice(2), ["Q2 edited", "", "Q3", "You said: Q3"]);
    cli.child.kill("SIGTERM");
    await cli.exited;
    cli = undefined;
  });
});
