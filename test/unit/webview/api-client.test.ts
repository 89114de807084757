// The webview's typed client: paths built from the route table, and stream and app events parsed
// with their shared schemas before the UI acts on them.
import assert from "node:assert/strict";
import { apiRoutes } from "../../../src/shared/api-routes";
import { routePath } from "../../../webview/src/lib/api/client";
import { readAppEvent, readSse, readStreamEvent } from "../../../webview/src/lib/api/sse";

describe("UI API client", () => {
  it("fills path parameters encoded, and appends only the query values that are set", () => {
    assert.equal(routePath("GET /api/chats/:id", { params: { id: "a/b c" } }), "/api/chats/a%2Fb%20c");
    assert.equal(
      routePath("GET /api/settings/resolved", { query: { projectDir: "/tmp/my project" } }),
      "/api/settings/resolved?projectDir=%2Ftmp%2Fmy+project",
    );
    assert.equal(
      routePath("GET /api/settings/resolved", { query: { projectDir: undefined } }),
      "/api/settings/resolved",
    );
    assert.equal(
      routePath("POST /api/providers/gateway/accounts/:id/activate", { params: { id: "x1" } }),
      "/api/providers/gateway/accounts/x1/activate",
    );
  });

  it("keys every route by an HTTP method and an /api path", () => {
    for (const key of Object.keys(apiRoutes)) assert.match(key, /^(GET|POST|PUT|PATCH|DELETE) \/api\/[a-z/:.-]*$/);
  });

  it("passes a well-formed stream event on, typed by its name", () => {
    const event = readStreamEvent("text.delta", { text: "hi" });
    assert.deepEqual(event, { event: "text.delta", data: { text: "hi" } });
  });

  it("drops a stream event whose payload does not match its schema, or whose name is unknown", () => {
    const warn = console.warn;
    console.warn = () => {};
    try {
      assert.equal(readStreamEvent("text.delta", { text: 42 }), undefined);
      assert.equal(readStreamEvent("error", { message: "no code" }), undefined);
    } finally {
      console.warn = warn;
    }
    assert.equal(readStreamEvent("toString", {}), undefined, "no prototype names");
    assert.equal(readStreamEvent("made.up", { text: "hi" }), undefined);
  });

  it("parses app events into {type, data} and refuses malformed ones", () => {
    assert.deepEqual(readAppEvent("chats.changed", { projectId: "p1", chatId: "c1" }), {
      type: "chats.changed",
      data: { projectId: "p1", chatId: "c1" },
    });
    const warn = console.warn;
    console.warn = () => {};
    try {
      assert.equal(readAppEvent("settings.changed", { scope: "everywhere" }), undefined);
    } finally {
      console.warn = warn;
    }
    assert.equal(readAppEvent("ready", {}), undefined, "`ready` is the stream's own, not a change");
  });

  it("reads SSE split across chunks, skipping events whose data is not JSON", async () => {
    const chunks = [
      'id: 1\nevent: text.delta\ndata: {"te',
      'xt":"a"}\n\nevent: x\ndata: not json\n\n',
      'event: turn.end\ndata: {"turnId":"t","finishReason":"stop"}\n\n',
    ];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    });
    const seen: [string, unknown, string | undefined][] = [];
    await readSse(body, (name, data, id) => seen.push([name, data, id]));
    assert.deepEqual(seen, [
      ["text.delta", { text: "a" }, "1"],
      ["turn.end", { turnId: "t", finishReason: "stop" }, undefined],
    ]);
  });
});
