// A stream opened a moment after its route ran (the chat route opens it after the upstream request
// has left) may find its client gone: it must count as closed at once, so the turn is cancelled.
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { openSse, SseRegistry } from "../../src/platform/http/sse";

describe("server-sent events, opened late", () => {
  it("closes at once, and says so, when the client left before the stream opened", async () => {
    const registry = new SseRegistry();
    let closedByOpen: boolean | undefined;
    let onCloseCalls = 0;
    let opened!: () => void;
    const handled = new Promise<void>((resolve) => (opened = resolve));
    const app = express();
    app.post("/stream", (req, res) => {
      req.socket.destroy();
      setImmediate(() => {
        const channel = openSse(req, res, registry, () => onCloseCalls++);
        closedByOpen = channel.closed;
        channel.send("turn.start", { ok: true }, 1);
        opened();
      });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as AddressInfo).port;
    const request = http.request({ port, host: "127.0.0.1", method: "POST", path: "/stream" });
    request.on("error", () => {});
    request.end();
    await handled;
    server.close();
    assert.equal(closedByOpen, true);
    assert.equal(onCloseCalls, 1);
  });
});
