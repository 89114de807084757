// An event leaves as it is sent. Node holds a response's writes until the next tick, which waits for
// every promise continuation queued meanwhile: the first token of an upstream read that brought many
// chunks (or of a step whose end stores rows) waited for all of that work.
import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import express from "express";
import { openSse, SseRegistry } from "../../src/platform/http/sse";

describe("server-sent events, sent at once", () => {
  it("writes the first event of a burst to the socket at once, and the rest of the burst together after it", async () => {
    const seen: { event: string; corked: number }[] = [];
    const app = express();
    app.get("/stream", (req, res) => {
      const channel = openSse(req, res, new SseRegistry());
      void (async () => {
        await Promise.resolve();
        for (const event of ["first", "second", "third"]) {
          channel.send(event, { event }, seen.length + 1);
          seen.push({ event, corked: res.socket!.writableCorked });
          await Promise.resolve();
        }
        // After the burst: Node's own flush has run, and the next event leaves at once again.
        setImmediate(() => {
          channel.send("later", {}, 4);
          seen.push({ event: "later", corked: res.socket!.writableCorked });
          channel.close();
        });
      })();
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/stream`);
      const text = await res.text();
      assert.deepEqual(
        [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]),
        ["first", "second", "third", "later"],
        "every event arrives, in order",
      );
      assert.deepEqual(seen, [
        { event: "first", corked: 0 },
        { event: "second", corked: 1 },
        { event: "third", corked: 1 },
        { event: "later", corked: 0 },
      ]);
    } finally {
      server.close();
    }
  });
});
