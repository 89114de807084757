// Compaction (contract 7.3) against the fake gateway, which enforces each model's context length and
// writes summaries that keep the `needle:` facts it reads: a long turn compacts itself and finishes,
// "Compact now", the summary's edit and undo, an overflow answer, and every bad input.
import assert from "node:assert/strict";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { SUMMARY_HEADER } from "../../src/chat/context/request-messages";

type Wire = { role: string; content: unknown; tool_call_id?: string };

describe("compaction", function () {
  this.timeout(120_000);
  let f: ChatFixture;
  beforeEach(async () => {
    f = await startChatFixture();
    assert.equal((await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } })).status, 200);
  });
  afterEach(() => f.stop());

  const turn = async (chatId: string, content: string) => readEvents(await send(f, chatId, { content }));
  const requests = () => f.gateway.completions.map((r) => r.body as { messages: Wire[]; tools?: unknown[] });
  const lastRequest = () => requests().at(-1)!;
  const summaryRequests = () => requests().filter((r) => !r.tools && JSON.stringify(r.messages).includes("summar"));
  const chatMessages = async (chatId: string) =>
    ((await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as { messages: any[] }).messages;
  const errors = (events: ReceivedEvent[]) => events.filter((e) => e.event === "error");

  /** A chat with a few turns of 2 KB answers: enough older history for a summary. */
  async function chatWithHistory(modelId = "fake/tools") {
    const chat = await newChat(f, { modelId });
    await turn(chat.id, "Remember this.\nneedle: the owl is named Ada");
    for (let i = 0; i < 4; i++) await turn(chat.id, `turn ${i} ${"words and more words ".repeat(100)}`);
    return chat;
  }

  it("a long turn on a 16k-token model compacts itself and finishes, the needle still in its request", async () => {
    const chat = await newChat(f, { modelId: "fake/small-context" });
    const events = await turn(chat.id, "long: 40 2\nneedle: the owl is named Ada");
    const notices = events.filter((e) => e.event === "notice").map((e) => e.data);
    assert.deepEqual(errors(events), [], JSON.stringify({ errors: errors(events), notices }));
    assert.match(text(events), /Done: 40 steps, each reading about 2 KB\. Needle "the owl is named Ada": visible/);
    const compactions = events.filter((e) => e.event === "compaction").map((e) => e.data);
    assert.ok(compactions.length >= 1, "at least one compaction");
    for (const c of compactions) {
      assert.equal(c.reason, "auto", JSON.stringify({ compactions, notices }));
      assert.ok(c.tokensAfter < c.tokensBefore, JSON.stringify(c));
    }
    // Every request fitted the window; the stored transcript kept every output whole.
    for (const e of events.filter((e) => e.event === "context")) assert.ok(e.data.used <= 16_000, e.data.used);
    const stored = await chatMessages(chat.id);
    const outputs = stored.filter((m) => m.role === "tool");
    assert.equal(outputs.length, 41);
    assert.ok(outputs.slice(1).every((m) => m.content.includes("parley-long line")));
    assert.equal(stored.filter((m) => m.role === "compaction").length, compactions.length);
    // Pruned outputs went as stubs (until a summary took their place); the last request still carried
    // the first user message.
    const stubbed = requests().some((r) =>
      r.messages.some((m) => m.role === "tool" && String(m.content).includes("was pruned to save context")),
    );
    assert.ok(stubbed, "some request carried a pruned output's stub");
    const last = lastRequest().messages;
    assert.ok(last.some((m) => m.role === "user" && String(m.content).startsWith("long: 40 2")));
    // The ledger shows each summary request under its own cause.
    const ledger = (await (await f.s.api("GET", `/api/chats/${chat.id}/requests`)).json()) as any[];
    assert.equal(ledger.filter((r) => r.cause === "compaction").length, compactions.filter((c) => c.summary).length);
  });

  it("Compact now summarises the older part; the next request sends the summary instead", async () => {
    const chat = await chatWithHistory();
    const res = await f.s.api("POST", `/api/chats/${chat.id}/compact`);
    assert.equal(res.status, 200, await res.clone().text());
    const entry = await res.json();
    assert.equal(entry.role, "compaction");
    assert.equal(entry.meta.reason, "manual");
    assert.match(entry.content, /needle: the owl is named Ada/);
    assert.ok(entry.meta.tokensAfter < entry.meta.tokensBefore);
    assert.equal(summaryRequests().length, 1);
    assert.match(JSON.stringify(summaryRequests()[0]), /handoff/);

    const context = await (await f.s.api("GET", `/api/chats/${chat.id}/context`)).json();
    assert.ok(context.layers.summary > 0, JSON.stringify(context.layers));

    await turn(chat.id, "and now?");
    const sent = lastRequest().messages.filter((m) => m.role !== "system");
    assert.match(String(sent[0]!.content), /^Remember this\./, "the first user message stays first");
    assert.ok(String(sent[1]!.content).startsWith(SUMMARY_HEADER));
    assert.ok(!sent.some((m) => String(m.content).startsWith("turn 0 ")), "covered messages are not sent");
    assert.equal(sent.at(-1)!.content, "and now?");
    const stored = await chatMessages(chat.id);
    assert.ok(
      stored.some((m) => m.content.startsWith("turn 0 ")),
      "the stored transcript is whole",
    );
  });

  it("an edited summary is what is sent; undo sends the whole conversation again", async () => {
    const chat = await chatWithHistory();
    const entry = await (await f.s.api("POST", `/api/chats/${chat.id}/compact`)).json();
    const edit = await f.s.api("PATCH", `/api/chats/${chat.id}/compactions/${entry.id}`, {
      summary: "Edited by hand. needle: the cat is named Bo",
    });
    assert.equal(edit.status, 200);
    const edited = await edit.json();
    assert.equal(edited.content, "Edited by hand. needle: the cat is named Bo");
    assert.equal(edited.meta.edited, true);
    await turn(chat.id, "next");
    assert.ok(JSON.stringify(lastRequest().messages).includes("Edited by hand."));

    const undo = await f.s.api("DELETE", `/api/chats/${chat.id}/compactions/${entry.id}`);
    assert.equal(undo.status, 204);
    await turn(chat.id, "again");
    const sent = JSON.stringify(lastRequest().messages);
    assert.ok(!sent.includes("Edited by hand."));
    assert.ok(sent.includes("turn 0 words"), "the covered turns are sent again");
    assert.ok(!(await chatMessages(chat.id)).some((m) => m.role === "compaction"));
  });

  it("keeps an undone compaction's summary request counted: in GET /api/usage and in the chat's totals", async () => {
    const chat = await chatWithHistory();
    const spent = async () => {
      const byModel = (await (await f.s.api("GET", "/api/usage?groupBy=model")).json()) as {
        key: string;
        promptTokens: number;
        turns: number;
      }[];
      const totals = ((await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()) as { usage: unknown }).usage;
      return { byModel, totals };
    };
    const before = await spent();
    const entry = await (await f.s.api("POST", `/api/chats/${chat.id}/compact`)).json();
    assert.ok(entry.usage?.promptTokens > 0, "the summary request was paid for");
    const compacted = await spent();
    assert.notDeepEqual(compacted, before, "the summary request counts");

    assert.equal((await f.s.api("DELETE", `/api/chats/${chat.id}/compactions/${entry.id}`)).status, 204);
    assert.ok(!(await chatMessages(chat.id)).some((m) => m.role === "compaction"), "the entry is gone");
    assert.deepEqual(await spent(), compacted, "what it cost is still counted");

    // It goes with its chat, as the chat's other usage does.
    assert.equal((await f.s.api("DELETE", `/api/chats/${chat.id}`)).status, 204);
    assert.deepEqual(((await (await f.s.api("GET", "/api/usage?groupBy=model")).json()) as unknown[]).length, 0);
  });

  it("refuses bad edits and unknown entries, and what cannot be compacted", async () => {
    const chat = await chatWithHistory();
    const entry = await (await f.s.api("POST", `/api/chats/${chat.id}/compact`)).json();
    const path = `/api/chats/${chat.id}/compactions/${entry.id}`;
    const huge = await f.s.api("PATCH", path, { summary: "x".repeat(1024 * 1024) });
    assert.equal(huge.status, 413);
    const big = await f.s.api("PATCH", path, { summary: "x".repeat(200_000) });
    assert.equal(big.status, 413);
    assert.equal((await big.json()).error.code, "payload_too_large");
    assert.equal((await f.s.api("PATCH", path, { summary: "  " })).status, 400);
    assert.equal((await f.s.api("PATCH", path, { summary: "ok", extra: 1 })).status, 400);
    // Hostile bodies: wrong types, prototype keys, deep nesting; 4xx in the contract's shape, never 500.
    for (const body of [
      { summary: 42 },
      { summary: { toString: "x" } },
      JSON.parse('{"__proto__": {"summary": "x"}}'),
      { summary: ["a"] },
      `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
    ]) {
      const res = await fetch(`${f.s.url}${path}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${f.s.token}`, "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      assert.ok(
        res.status >= 400 && res.status < 500,
        `${res.status} for ${String(JSON.stringify(body)).slice(0, 40)}`,
      );
      assert.ok((await res.json()).error.code);
    }
    assert.equal((await f.s.api("PATCH", `/api/chats/${chat.id}/compactions/m_nope`, { summary: "x" })).status, 404);
    assert.equal((await f.s.api("DELETE", `/api/chats/${chat.id}/compactions/m_nope`)).status, 404);
    // Another chat's entry is not reachable through this one.
    const other = await newChat(f, { modelId: "fake/tools" });
    assert.equal((await f.s.api("DELETE", `/api/chats/${other.id}/compactions/${entry.id}`)).status, 404);
    // A user message is not a compaction.
    const userRow = (await chatMessages(chat.id)).find((m) => m.role === "user");
    assert.equal((await f.s.api("DELETE", `/api/chats/${chat.id}/compactions/${userRow.id}`)).status, 404);
    assert.equal((await f.s.api("GET", `/api/chats/${chat.id}`)).status, 200);
    assert.equal((await f.s.api("PATCH", path, { summary: "still mine" })).status, 200, "nothing was lost");

    // A chat with one message has nothing older to summarise.
    const fresh = await newChat(f, { modelId: "fake/tools" });
    await turn(fresh.id, "hi");
    const nothing = await f.s.api("POST", `/api/chats/${fresh.id}/compact`);
    assert.equal(nothing.status, 409);
    assert.match((await nothing.json()).error.message, /nothing to compact/);
    assert.equal((await f.s.api("POST", "/api/chats/no-such-chat/compact")).status, 404);
  });

  it("a summary that fails stores nothing and says why", async () => {
    const chat = await chatWithHistory();
    const before = await chatMessages(chat.id);
    f.gateway.enqueue({ kind: "status", status: 500, message: "summariser down" });
    f.gateway.enqueue({ kind: "status", status: 500, message: "summariser down" });
    f.gateway.enqueue({ kind: "status", status: 500, message: "summariser down" });
    f.gateway.enqueue({ kind: "status", status: 500, message: "summariser down" });
    const failed = await f.s.api("POST", `/api/chats/${chat.id}/compact`);
    assert.equal(failed.status, 502);
    assert.match((await failed.json()).error.message, /compaction failed, the chat is as it was: .*summariser down/);
    f.gateway.enqueue({ kind: "reply", text: "" });
    const empty = await f.s.api("POST", `/api/chats/${chat.id}/compact`);
    assert.equal(empty.status, 502);
    assert.match((await empty.json()).error.message, /empty summary/);
    f.gateway.enqueue({ kind: "reply", text: "long ".repeat(20_000) });
    const longer = await f.s.api("POST", `/api/chats/${chat.id}/compact`);
    assert.equal(longer.status, 502);
    assert.match((await longer.json()).error.message, /no shorter/);
    assert.deepEqual(await chatMessages(chat.id), before);
  });

  it("an upstream context-length answer compacts and sends the request once more", async () => {
    // Auto compaction off, and a window the upstream does not have: only the overflow answer can save the turn.
    await f.s.api("PATCH", "/api/settings/app", {
      chat: { compaction: { auto: false } },
    });
    const chat = await newChat(f, { modelId: "fake/tools" });
    await turn(chat.id, "Remember this.\nneedle: the owl is named Ada");
    for (let i = 0; i < 3; i++) await turn(chat.id, `turn ${i} ${"words and more words ".repeat(300)}`);
    f.gateway.contextLengths.set("fake/tools", 5_000);
    const events = await turn(chat.id, "what now?");
    const compaction = events.find((e) => e.event === "compaction");
    assert.ok(compaction, events.map((e) => e.event).join(","));
    assert.equal(compaction.data.reason, "overflow");
    assert.deepEqual(errors(events), []);
    assert.equal(text(events), "You said: what now?");
    // Still too long after one compaction: the turn ends with the upstream's error, no loop.
    f.gateway.contextLengths.set("fake/tools", 300);
    const failed = await turn(chat.id, "and now?");
    assert.equal(errors(failed).length, 1);
    assert.match(errors(failed)[0]!.data.message, /maximum context length/);
  });

  it("refuses compaction settings and windows out of range", async () => {
    for (const chat of [
      { compaction: { threshold: 0.3 } },
      { compaction: { threshold: 0.99 } },
      { compaction: { keepRecentTokens: -1 } },
      { compaction: { auto: "yes" } },
      { compaction: { mode: "eager" } },
      { contextWindow: 0 },
      { contextWindow: 10_000_000_000 },
    ]) {
      const res = await f.s.api("PATCH", "/api/settings/app", { chat });
      assert.equal(res.status, 400, JSON.stringify(chat));
    }
    const ok = await f.s.api("PATCH", "/api/settings/app", {
      chat: { compaction: { auto: true, threshold: 0.7, keepRecentTokens: 8000, model: "fake/echo" } },
    });
    assert.equal(ok.status, 200);
  });
});
