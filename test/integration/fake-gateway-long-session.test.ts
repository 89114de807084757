// fake/agent-long through Parley itself: a turn writes the session's file, reads it in N steps with
// the real `file` tool, and ends with the fake's final answer, which saw the needle in its request.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents, text } from "../helpers/sse";

describe("fake gateway: fake/agent-long through Parley", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  beforeEach(async () => (f = await startChatFixture()));
  afterEach(() => f.stop());

  it("runs N steps of file reads and ends with its final answer", async () => {
    const gates = await f.s.api("PATCH", "/api/settings/app", { toolGates: { file: "allow" } });
    assert.equal(gates.status, 200);
    const chat = await newChat(f, { modelId: "fake/agent-long" });
    const events = await readEvents(await send(f, chat.id, { content: "long: 4 3\nneedle: the owl is named Ada" }));
    const results = events.filter((e) => e.event === "tool.result");
    assert.equal(results.length, 5, "one write, four reads");
    assert.ok(results.every((e) => e.data.ok === true));
    assert.match(
      text(events),
      /Done: 4 steps, each reading about 3 KB\. Needle "the owl is named Ada": visible in this request\.$/,
    );
    assert.equal(events.at(-1)!.event, "turn.end");

    const written = fs.readdirSync(path.join(f.s.projectDir, ".parley-long"));
    assert.equal(written.length, 1);
    const requests = f.gateway.completions.map((r) => r.body as { messages: { role: string; content: unknown }[] });
    assert.equal(requests.length, 6);
    // Each read's output reaches the next request: about 3 KB more each step.
    const lastTool = requests[5]!.messages.filter((m) => m.role === "tool").at(-1)!;
    const output = typeof lastTool.content === "string" ? lastTool.content : JSON.stringify(lastTool.content);
    assert.ok(output.length > 3_000 && output.length < 3_800, String(output.length));
    assert.match(output, /parley-long line 000004: /);
  });
});
