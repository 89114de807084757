import assert from "node:assert/strict";
import { startTestServer, projectQuery, type TestServer } from "../helpers/test-server";

describe("app events stream", () => {
  let s: TestServer;
  beforeEach(async () => (s = await startTestServer()));
  afterEach(() => s.stop());

  it("tells an open UI that settings changed", async () => {
    const controller = new AbortController();
    const res = await s.api("GET", "/api/events", undefined, {});
    assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error("stream ended");
        text += decoder.decode(value);
      }
    };
    await readUntil("event: ready");
    await s.api("PATCH", `/api/settings/project?${projectQuery(s.projectDir)}`, { name: "X" });
    await readUntil("event: settings.changed");
    assert.match(text, /event: settings\.changed\ndata: \{"scope":"project","projectId":"p_/);
    controller.abort();
    await reader.cancel();
  });
});
