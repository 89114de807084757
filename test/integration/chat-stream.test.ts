import assert from "node:assert/strict";
import diagnostics from "node:diagnostics_channel";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, TEST_KEY, type ChatFixture } from "../helpers/chat-fixture";
import { until, within } from "../helpers/poll";
import { names, readEvents, text } from "../helpers/sse";
import { conversation } from "../helpers/upstream-messages";
import { closeGatewayDispatcher } from "../../src/gateway/http";

describe("chat streaming through the gateway", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("sends the slug verbatim with the key and attribution headers, streams, and stores both messages", async () => {
    const chat = await newChat(f, { modelId: "anthropic/claude-sonnet-4" });
    f.gateway.enqueue({ kind: "reply", pieces: ["Hel", "lo, ", "wor", "ld!"] });
    const res = await send(f, chat.id, { content: "Say hello" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^text\/event-stream/);
    const events = await readEvents(res);

    const upstream = f.gateway.completions[0]!;
    assert.equal((upstream.body as any).model, "anthropic/claude-sonnet-4");
    assert.equal((upstream.body as any).stream, true);
    assert.deepEqual(conversation((upstream.body as any).messages), [{ role: "user", content: "Say hello" }]);
    assert.equal(upstream.headers.authorization, `Bearer ${TEST_KEY}`);
    assert.equal(upstream.headers["http-referer"], "http://127.0.0.1/parley");
    assert.equal(upstream.headers["x-gateway-title"], "Parley");
    assert.equal(upstream.headers["x-title"], "Parley");

    assert.deepEqual(names(events), [
      "turn.start",
      "text.delta",
      "text.delta",
      "text.delta",
      "text.delta",
      "usage",
      "turn.end",
    ]);
    assert.equal(text(events), "Hello, world!");
    const ids = events.map((e) => Number(e.id));
    assert.ok(
      ids.every((id, i) => i === 0 || id > ids[i - 1]!),
      "ids increase",
    );
    const usage = events.find((e) => e.event === "usage")!.data;
    assert.equal(usage.costSource, "gateway");
    assert.equal(usage.completionTokens, 4);
    assert.ok(usage.cost > 0);
    assert.equal(events.at(-1)!.data.finishReason, "stop");
    assert.equal(events[0]!.data.model, "anthropic/claude-sonnet-4");

    const stored = await (await f.s.api("GET", `/api/chats/${chat.id}`)).json();
    assert.deepEqual(
      stored.messages.map((m: any) => [m.role, m.content, m.status]),
      [
        ["user", "Say hello", "complete"],
        ["assistant", "Hello, world!", "complete"],
      ],
    );
    assert.equal(stored.messages[1].id, events[0]!.data.messageId);
    assert.deepEqual(stored.messages[1].usage, usage);
    assert.equal(stored.usage.turns, 1);
    assert.equal(stored.usage.cost, usage.cost);
    assert.equal(stored.title, "Say hello");
  });

  it("keeps event ids monotonic across turns and sends the history", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    const first = await readEvents(await send(f, chat.id, { content: "one" }));
    const second = await readEvents(await send(f, chat.id, { content: "two" }));
    assert.ok(Number(second[0]!.id) > Number(first.at(-1)!.id));
    assert.deepEqual(conversation((f.gateway.completions[1]!.body as any).messages), [
      { role: "user", content: "one" },
      { role: "assistant", content: "You said: one" },
      { role: "user", content: "two" },
    ]);
  });

  it("keeps its connection to the gateway for the next turn once a stream has said [DONE]", async () => {
    const chat = await newChat(f, { modelId: "fake/fast" });
    for (let turn = 0; turn < 6; turn++) {
      f.gateway.enqueue({ kind: "reply", pieces: ["a", "b"], endAfterDoneMs: 30 });
      assert.equal(text(await readEvents(await send(f, chat.id, { content: `turn ${turn}` }))), "ab");
      await until(
        () => f.gateway.streamsEnded,
        (ended) => ended === turn + 1,
        "the body ended after [DONE]",
      );
    }
    // A body destroyed after [DONE] but before its end closed the socket, and every turn waited for
    // a new connection. The first turn shares the gateway with the catalog's price list.
    const ports = f.gateway.completions.map((request) => request.clientPort);
    assert.equal(ports.length, 6);
    assert.ok(new Set(ports).size <= 2, `connections kept alive, not one per turn: ${JSON.stringify(ports)}`);
  });

  it("gives up a connection whose body never ends after [DONE], so it holds no shutdown", async () => {
    // How soon (AFTER_DONE_MS in src/gateway/chat-completions.ts) is measured by `npm run bench -- chat`
    // (chat.close_after_done).
    const chat = await newChat(f, { modelId: "fake/fast" });
    f.gateway.enqueue({ kind: "reply", pieces: ["a", "b"], endAfterDoneMs: 30_000 });
    assert.equal(text(await readEvents(await send(f, chat.id, { content: "hang after done" }))), "ab");
    // Closing the pool waits for its connections: it settles once Parley has let go of this one,
    // long before the gateway would end the body (the guard is a third of that wait).
    const closed = closeGatewayDispatcher().then(() => "closed");
    assert.equal(await within(closed, 10_000, "still open"), "closed");
    assert.equal(f.gateway.streamsEnded, 0, "the gateway never ended the body");
    await until(
      () => f.gateway.streamsAbortedByClient,
      (closed) => closed === 1,
      "the gateway saw Parley close the connection",
    );
  });

  it("lets model.headers override attribution headers per request", async () => {
    await f.s.api("PATCH", "/api/settings/app", {
      models: [
        { id: "openai/gpt-4o-mini", headers: { "X-Title": "My Tool", "HTTP-Referer": "https://example.test/app" } },
      ],
    });
    const chat = await newChat(f, { modelId: "openai/gpt-4o-mini" });
    await readEvents(await send(f, chat.id, { content: "hi" }));
    const headers = f.gateway.completions[0]!.headers;
    assert.equal(headers["x-title"], "My Tool");
    assert.equal(headers["http-referer"], "https://example.test/app");
    assert.equal(headers["x-gateway-title"], "Parley");
  });

  it("switches the chat's model when a message names another one", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "hi", modelId: "openai/gpt-4o-mini" }));
    assert.equal((f.gateway.completions[0]!.body as any).model, "openai/gpt-4o-mini");
    assert.equal((await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).modelId, "openai/gpt-4o-mini");
  });

  it("forwards reasoning deltas and reasoning tokens", async () => {
    const chat = await newChat(f, { modelId: "fake/reasoner" });
    const events = await readEvents(await send(f, chat.id, { content: "why" }));
    assert.equal(
      events
        .filter((e) => e.event === "reasoning.delta")
        .map((e) => e.data.text)
        .join(""),
      "Let me think.",
    );
    assert.equal(events.find((e) => e.event === "usage")!.data.reasoningTokens, 3);
  });

  it("reports a mid-stream error chunk as an error event, keeps the partial answer, and ends the turn", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["a", "b", "c", "d"], errorAfter: 2, errorStatus: 502 });
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.deepEqual(names(events), ["turn.start", "text.delta", "text.delta", "error", "usage", "turn.end"]);
    const error = events.find((e) => e.event === "error")!.data;
    assert.equal(error.code, "upstream_error");
    assert.equal(error.status, 502);
    assert.equal(error.message, "Provider disconnected unexpectedly");
    assert.equal(events.at(-1)!.data.finishReason, "error");
    const stored = (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages[1];
    assert.equal(stored.content, "ab");
    assert.equal(stored.status, "error");
  });

  it("reports a connection that drops without [DONE] as a retryable error", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["a", "b", "c"], dropAfter: 2 });
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    const error = events.find((e) => e.event === "error")!.data;
    assert.match(error.message, /closed the stream before it finished/);
    assert.equal(error.retryable, true);
    assert.equal(text(events), "ab");
    assert.equal(f.gateway.completions.length, 1, "no retry once tokens arrived");
    assert.equal(events.at(-1)!.event, "turn.end");
    const usage = events.find((e) => e.event === "usage")!.data;
    assert.equal(usage.costSource, "estimate", "no usage arrived, so it is estimated");
    assert.ok(usage.completionTokens > 0);
  });

  for (const status of [401, 402, 429, 500]) {
    it(`turns an upstream ${status} into an error event with status when auto-retry is off`, async () => {
      await f.s.api("PATCH", "/api/settings/app", { chat: { autoRetryFailedSends: false } });
      const chat = await newChat(f, { modelId: "fake/echo" });
      f.gateway.enqueue({ kind: "status", status, message: `upstream says ${status}` });
      const events = await readEvents(await send(f, chat.id, { content: "x" }));
      assert.deepEqual(names(events), ["turn.start", "error", "usage", "turn.end"]);
      const error = events.find((e) => e.event === "error")!.data;
      assert.equal(error.status, status);
      assert.equal(error.message, `upstream says ${status}`);
      assert.equal(error.retryable, status === 429 || status === 500);
      assert.equal(f.gateway.completions.length, 1, "no retry");
    });
  }

  it("retries 429 and 5xx before the first token when Auto-retry is on, then succeeds", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue(
      { kind: "status", status: 429, retryAfter: "0" },
      { kind: "status", status: 503 },
      { kind: "reply", text: "finally" },
    );
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.equal(text(events), "finally");
    assert.equal(names(events).includes("error"), false);
    assert.equal(f.gateway.completions.length, 3);
  });

  it("gives up after three retries and says so", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue(...Array.from({ length: 4 }, () => ({ kind: "status" as const, status: 500 })));
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.equal(events.find((e) => e.event === "error")!.data.status, 500);
    assert.equal(f.gateway.completions.length, 4);
  });

  it("never retries a 401, even with Auto-retry on", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "status", status: 401 });
    const events = await readEvents(await send(f, chat.id, { content: "x" }));
    assert.equal(events.find((e) => e.event === "error")!.data.status, 401);
    assert.equal(f.gateway.completions.length, 1);
  });

  it("estimates cost from live prices when the gateway reports none", async () => {
    await f.s.api("GET", "/api/providers/gateway/models");
    const chat = await newChat(f, { modelId: "anthropic/claude-sonnet-4" });
    f.gateway.enqueue({ kind: "reply", pieces: ["x", "y"], cost: false });
    const events = await readEvents(await send(f, chat.id, { content: "hi" }));
    const usage = events.find((e) => e.event === "usage")!.data;
    assert.equal(usage.costSource, "estimate");
    // The fake caches what the request marks (an Anthropic model): written tokens cost the write price.
    const written = usage.cacheWriteTokens;
    const expected = (usage.promptTokens - written) * 0.000003 + written * 0.00000375 + 2 * 0.000015;
    assert.ok(Math.abs(usage.cost - expected) < 1e-12, `${usage.cost} != ${expected}`);
  });

  it("refuses before storing anything when there is no key, no model, or a busy chat", async () => {
    const chat = await newChat(f);
    const noModel = await send(f, chat.id, { content: "x" });
    assert.equal(noModel.status, 400);
    await f.s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: null }] });
    const noKey = await send(f, chat.id, { content: "x", modelId: "fake/echo" });
    assert.equal(noKey.status, 400);
    assert.match((await noKey.json()).error.message, /no key/);
    assert.deepEqual((await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages, []);
    assert.equal((await send(f, "c_missing", { content: "x" })).status, 404);
    assert.equal((await send(f, chat.id, { content: "" })).status, 400);
  });

  it("ends a turn whose message cannot be saved with an error, keeps none of it, and answers the next", async () => {
    const chat = await newChat(f, { modelId: "fake/slow" });
    const messages = f.s.runtime.messages;
    const append = messages.append.bind(messages);
    let failing = true;
    // The store runs after the upstream request has left; a failing disk there must not leave half a turn.
    messages.append = (...args) => {
      if (failing) throw new Error("SQLITE_FULL: database or disk is full");
      return append(...args);
    };
    const events = await readEvents(await send(f, chat.id, { content: "lost" }));
    failing = false;
    assert.equal(events[0]!.event, "turn.start");
    const error = events.find((e) => e.event === "error")!.data;
    assert.equal(error.code, "internal");
    assert.match(error.message, /could not save this message/);
    assert.equal(events.at(-1)!.event, "turn.end");
    assert.ok(!text(events), "nothing of the answer is shown");
    assert.ok(f.s.logLines.some((line) => line.includes("SQLITE_FULL")));
    assert.deepEqual(
      (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages,
      [],
      "the transaction left nothing",
    );

    const next = await readEvents(await send(f, chat.id, { content: "again", modelId: "fake/echo" }));
    assert.equal(text(next), "You said: again");
    const stored = (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages;
    assert.deepEqual(
      stored.map((m: any) => [m.role, m.content]),
      [
        ["user", "again"],
        ["assistant", "You said: again"],
      ],
    );
    assert.equal(stored[1].id, next[0]!.data.messageId);
  });

  it("writes the upstream request before it stores the turn", async () => {
    // The first turn loads undici and opens the pooled connection; the second reuses both, as every
    // turn after a user's first does.
    const warm = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, warm.id, { content: "warm up" }));
    const chat = await newChat(f, { modelId: "fake/echo" });
    const seen: number[] = [];
    const onRequestWritten = ({ request }: { request: { path: string } }) => {
      if (!request.path.endsWith("/chat/completions")) return;
      seen.push(f.s.runtime.messages.listByChat(chat.id).length);
    };
    diagnostics.subscribe("undici:client:sendHeaders", onRequestWritten as (message: unknown) => void);
    try {
      await readEvents(await send(f, chat.id, { content: "first the request" }));
    } finally {
      diagnostics.unsubscribe("undici:client:sendHeaders", onRequestWritten as (message: unknown) => void);
    }
    // The turn's store (and all else it does before its first token) waits until the request has left.
    assert.deepEqual(seen, [0]);
    assert.deepEqual(
      f.s.runtime.messages.listByChat(chat.id).map((m) => m.role),
      ["user", "assistant"],
    );
  });

  it("answers one of two messages sent at once and refuses the other with 409", async () => {
    const chat = await newChat(f, { modelId: "fake/slow" });
    // A referenced file makes each wait on a read before it starts: both pass the first check.
    fs.writeFileSync(path.join(f.s.projectDir, "both.txt"), "read by both");
    const body = (content: string) => ({ content, referencedPaths: ["both.txt"] });
    const both = await Promise.all([send(f, chat.id, body("first")), send(f, chat.id, body("second"))]);
    assert.deepEqual(both.map((res) => res.status).sort(), [200, 409]);
    const answering = both.find((res) => res.status === 200)!;
    await f.s.api("POST", `/api/chats/${chat.id}/cancel`);
    assert.equal((await readEvents(answering)).at(-1)!.event, "turn.end");
    const users = (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages.filter(
      (m: { role: string }) => m.role === "user",
    );
    assert.equal(users.length, 2, "one turn stored: its file and its message");
    assert.equal(
      (await send(f, chat.id, { content: "third", modelId: "fake/echo" })).status,
      200,
      "the chat is free again",
    );
  });

  it("answers 409 to a second message while the chat is still answering", async () => {
    const chat = await newChat(f, { modelId: "fake/slow" });
    const first = await send(f, chat.id, { content: "long" });
    const second = await send(f, chat.id, { content: "again" });
    assert.equal(second.status, 409);
    await f.s.api("POST", `/api/chats/${chat.id}/cancel`);
    await readEvents(first);
  });
});

describe("cancel", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("POST /cancel aborts the upstream request at once and keeps the partial answer", async () => {
    const chat = await newChat(f, { modelId: "fake/slow" });
    const aborted = f.gateway.waitForClientAbort();
    let cancelled = false;
    const events = await readEvents(await send(f, chat.id, { content: "go" }), (event) => {
      if (event.event === "text.delta" && !cancelled) {
        cancelled = true;
        void f.s.api("POST", `/api/chats/${chat.id}/cancel`);
      }
    });
    await aborted;
    assert.equal(f.gateway.streamsAbortedByClient, 1);
    assert.equal(events.at(-1)!.event, "turn.end");
    assert.equal(events.at(-1)!.data.finishReason, "cancelled");
    const stored = (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages[1];
    assert.equal(stored.status, "cancelled");
    assert.ok(stored.content.length > 0 && stored.content === text(events));
  });

  it("a client that disconnects cancels the turn and the gateway sees its socket close", async () => {
    const chat = await newChat(f, { modelId: "fake/slow" });
    const controller = new AbortController();
    const aborted = f.gateway.waitForClientAbort();
    const res = await send(f, chat.id, { content: "go" }, { signal: controller.signal });
    const reader = res.body!.getReader();
    let seen = "";
    while (!seen.includes("text.delta")) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await aborted;
    const stored = async () => (await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages[1];
    const message = await until(stored, (m) => m.status !== "streaming", "the turn was not cancelled");
    assert.equal(message.status, "cancelled");
  });

  it("lets a second UI follow a live turn from Last-Event-ID", async () => {
    const chat = await newChat(f, { modelId: "fake/echo" });
    f.gateway.enqueue({ kind: "reply", pieces: ["a", "b", "c"], delayMs: 30 });
    const main = send(f, chat.id, { content: "go" });
    const firstEvents = await readEvents(await main);
    const replay = await f.s.api("GET", `/api/chats/${chat.id}/stream`, undefined, {
      "last-event-id": firstEvents[1]!.id!,
    });
    const replayed = await readEvents(replay);
    assert.deepEqual(
      replayed.map((e) => e.id),
      firstEvents.slice(2).map((e) => e.id),
    );
  });
});

describe("referenced files", () => {
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("injects referenced files as user messages before the message", async () => {
    fs.mkdirSync(path.join(f.s.projectDir, "src"));
    fs.writeFileSync(path.join(f.s.projectDir, "src", "a.ts"), "export const a = 1;\n");
    const chat = await newChat(f, { modelId: "fake/echo" });
    await readEvents(await send(f, chat.id, { content: "explain @src/a.ts", referencedPaths: ["src/a.ts"] }));
    const messages = conversation((f.gateway.completions[0]!.body as any).messages) as any[];
    assert.equal(messages.length, 2);
    assert.equal(messages[0].role, "user");
    assert.match(messages[0].content, /^File: src\/a\.ts\n```\nexport const a = 1;\n/);
    assert.deepEqual(messages[1], { role: "user", content: "explain @src/a.ts" });
  });

  it("refuses paths that leave the project, with 400 and nothing stored or sent", async () => {
    const outside = path.join(path.dirname(f.s.projectDir), "secret.txt");
    fs.writeFileSync(outside, "top secret");
    fs.symlinkSync(outside, path.join(f.s.projectDir, "link.txt"));
    fs.symlinkSync(path.dirname(f.s.projectDir), path.join(f.s.projectDir, "up"));
    fs.symlinkSync("loop", path.join(f.s.projectDir, "loop"));
    const chat = await newChat(f, { modelId: "fake/echo" });
    for (const bad of [
      "../secret.txt",
      outside,
      "link.txt",
      "up/secret.txt",
      "src/../../secret.txt",
      "missing.txt",
      "loop",
      "loop/x",
      `${"a".repeat(300)}.txt`,
    ]) {
      const res = await send(f, chat.id, { content: "x", referencedPaths: [bad] });
      assert.equal(res.status, 400, bad);
      assert.equal((await res.json()).error.code, "invalid_request");
    }
    assert.equal(f.gateway.completions.length, 0);
    assert.deepEqual((await (await f.s.api("GET", `/api/chats/${chat.id}`)).json()).messages, []);
  });
});
