// The tool budget (contract 7.3): past `chat.toolBudget` of the window, a real MCP server's tools are
// held back and the model finds them with `tool_search`, which offers them from the next step on.
import assert from "node:assert/strict";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents } from "../helpers/sse";
import { EVERYTHING } from "../helpers/mcp-servers";
import { until } from "../helpers/poll";

describe("tool budget: tool_search", function () {
  this.timeout(90_000);
  let f: ChatFixture;
  beforeEach(async () => {
    f = await startChatFixture();
    const res = await f.s.api("PATCH", "/api/settings/app", {
      mcpServers: [{ id: "everything", transport: "stdio", command: process.execPath, args: [EVERYTHING] }],
    });
    assert.equal(res.status, 200, await res.clone().text());
    const q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
    await f.s.api("POST", `/api/mcp/servers/everything/restart?${q}`);
    await until(
      async () => ((await (await f.s.api("GET", `/api/mcp/servers?${q}`)).json()) as any[])[0],
      (s) => s?.status === "ready",
      "the server to be ready",
      60_000,
    );
  });
  afterEach(() => f.stop());

  const offered = (i: number) =>
    (((f.gateway.completions[i]!.body as any).tools ?? []) as any[]).map((t) => t.function.name as string);

  it("holds MCP tools back past the budget, and offers what tool_search found from the next step", async () => {
    assert.equal((await f.s.api("PATCH", "/api/settings/app", { chat: { toolBudget: 0.05 } })).status, 200);
    const chat = await newChat(f, { modelId: "fake/small-context" });
    const before = await (await f.s.api("GET", `/api/chats/${chat.id}/context`)).json();
    const events = await readEvents(await send(f, chat.id, { content: 'mcp: tool_search {"query":"echo back"}' }));
    const first = offered(0);
    assert.ok(first.includes("tool_search"), first.join(","));
    assert.ok(!first.some((name) => name.startsWith("mcp__")), first.join(","));
    assert.ok(first.includes("file"), "native tools stay offered");
    const result = events.find((e) => e.event === "tool.result")!.data;
    assert.equal(result.name, "tool_search");
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.output.found[0].name, "mcp__everything__echo");
    assert.ok(result.output.found[0].parameters.properties.message, "the schema comes with it");
    const second = offered(1);
    assert.ok(second.includes("mcp__everything__echo"), second.join(","));
    assert.equal(second.filter((name) => name.startsWith("mcp__")).length, result.output.found.length);
    // The meter counts the request as sent: the held-back tools are not in it.
    assert.ok(before.layers.tools < 0.05 * 16_000 + 1_500, String(before.layers.tools));

    // Nothing fits: a clear note, nothing added.
    const none = await readEvents(await send(f, chat.id, { content: 'mcp: tool_search {"query":"zzqx"}' }));
    const empty = none.find((e) => e.event === "tool.result")!.data;
    assert.deepEqual(empty.output.found, []);
    assert.match(empty.output.note, /no tool fits/);
    // Bad arguments are a failed call, not a crash.
    const bad = await readEvents(await send(f, chat.id, { content: "mcp: tool_search {}" }));
    assert.equal(bad.find((e) => e.event === "tool.result")!.data.ok, false);
  });

  it("offers every tool while they fit the budget, and no tool_search", async () => {
    const chat = await newChat(f, { modelId: "fake/tools" });
    await readEvents(await send(f, chat.id, { content: "hello" }));
    const names = offered(0);
    assert.ok(names.includes("mcp__everything__echo"));
    assert.ok(!names.includes("tool_search"));
    // The meter says what the server's definitions weigh.
    const context = await (await f.s.api("GET", `/api/chats/${chat.id}/context`)).json();
    assert.equal(context.mcpServers.length, 1);
    assert.equal(context.mcpServers[0].server, "everything");
    assert.ok(context.mcpServers[0].tokens > 100 && context.mcpServers[0].tokens < context.layers.tools);
  });

  it("refuses a budget out of range", async () => {
    for (const toolBudget of [0, 1.5, "a"])
      assert.equal((await f.s.api("PATCH", "/api/settings/app", { chat: { toolBudget } })).status, 400);
  });
});
