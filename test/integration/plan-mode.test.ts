// Plan mode over real HTTP (issue 37, item 11): the built-in Plan agent is listed and reserved, a
// Plan turn offers only reading tools and refuses every other call on the server (whatever the model
// asks and whatever the gates allow), and "Implement this plan" continues the chat with the default
// agent and the plan pinned in every later request, a compaction included.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { IMPLEMENT_PLAN_MESSAGE, PLAN_AGENT_NAME } from "../../src/shared/plan-mode";
import { PLAN_AGENT } from "../../src/projects/built-in-agents";

type Wire = {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string; parameters: any } }[];
};

describe("Plan mode", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let dir: string;
  beforeEach(async () => {
    f = await startChatFixture();
    dir = f.s.projectDir;
  });
  afterEach(() => f.stop());

  const q = () => `projectDir=${encodeURIComponent(dir)}`;
  const writeProject = (settings: Record<string, unknown>) =>
    fs.writeFileSync(path.join(dir, ".app.json"), JSON.stringify(settings));
  const lastRequest = () => f.gateway.completions.at(-1)!.body as Wire;
  const systemText = (wire: Wire) =>
    wire.messages
      .filter((m) => m.role === "system")
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
      .join("\n---\n");

  async function turn(chatId: string, content: string, onEvent?: (event: ReceivedEvent) => void) {
    const response = await send(f, chatId, { content });
    assert.equal(response.status, 200, await response.clone().text());
    return readEvents(response, onEvent);
  }

  async function planChat(): Promise<string> {
    return (await newChat(f, { modelId: "fake/tools", agent: PLAN_AGENT_NAME })).id;
  }

  it("lists Plan as a built-in agent, after the project's, and skips a project agent that takes its name", async () => {
    writeProject({
      agents: [
        { name: "reviewer", description: "Reviews" },
        { name: "Plan", description: "A hand-written impostor", tools: ["shell"] },
      ],
    });
    const res = await f.s.api("GET", `/api/agents?${q()}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-parley-skipped-entries"), "1");
    assert.deepEqual(await res.json(), [
      { name: "reviewer", description: "Reviews" },
      { name: "Plan", description: PLAN_AGENT.description, tools: ["file:read", "ask_user", "task"], builtIn: true },
    ]);
  });

  it("offers only reading tools and its instructions, even when the project defines its own Plan and allows everything", async () => {
    writeProject({
      toolGates: { shell: "allow", file: "allow" },
      agents: [{ name: "Plan", description: "impostor", tools: ["shell"] }],
    });
    const chatId = await planChat();
    const events = await turn(chatId, "How should I add a login page?");
    assert.equal(text(events), "You said: How should I add a login page?");
    assert.equal(events.find((e) => e.event === "turn.start")!.data.context.agent, "Plan");

    const wire = lastRequest();
    assert.deepEqual(
      wire.tools!.map((t) => t.function.name),
      ["file", "ask_user", "task"],
    );
    const file = wire.tools!.find((t) => t.function.name === "file")!.function.parameters;
    assert.deepEqual(file.properties.action.enum, ["read", "list", "search"], "the model is offered no writing action");
    assert.equal(file.properties.content, undefined);
    assert.ok(systemText(wire).includes(PLAN_AGENT.instructions), "the Plan instructions go upstream");
  });

  it("refuses a write and an edit on the server, and leaves the file as it was", async () => {
    fs.writeFileSync(path.join(dir, "notes.txt"), "as it was\n");
    writeProject({ toolGates: { file: "allow" } });
    const chatId = await planChat();
    for (const command of ["write: notes.txt overwritten", "write: new.txt created", "edit: notes.txt as => to"]) {
      const events = await turn(chatId, command);
      const result = events.find((e) => e.event === "tool.result")!.data;
      assert.equal(result.ok, false, command);
      assert.match(result.output, /only reads .*not allowed/, command);
      assert.equal(events.filter((e) => e.event === "tool.approval").length, 0, "nothing is put to the user");
    }
    assert.equal(fs.readFileSync(path.join(dir, "notes.txt"), "utf8"), "as it was\n");
    assert.equal(fs.existsSync(path.join(dir, "new.txt")), false);
  });

  it("refuses shell, subagent and MCP calls the model makes anyway, without asking", async () => {
    writeProject({
      toolGates: { shell: "allow" },
      agents: [{ name: "helper", description: "Helps" }],
    });
    const chatId = await planChat();
    const calls = [
      "shell: touch made-by-shell.txt",
      'mcp: subagent {"agent":"helper","task":"write a file"}',
      'mcp: mcp__calc__sum {"a":1,"b":2}',
      'mcp: report_progress {"message":"nearly"}',
    ];
    for (const command of calls) {
      const events = await turn(chatId, command);
      const result = events.find((e) => e.event === "tool.result")!.data;
      assert.equal(result.ok, false, command);
      assert.match(result.output, /is not available in this chat/, command);
      assert.equal(events.filter((e) => e.event === "tool.approval").length, 0);
    }
    assert.equal(fs.existsSync(path.join(dir, "made-by-shell.txt")), false);
  });

  it("reads, lists and searches, and keeps its task list", async () => {
    fs.writeFileSync(path.join(dir, "app.ts"), "export const answer = 42;\n");
    const chatId = await planChat();
    const read = await turn(chatId, 'mcp: file {"action":"read","path":"app.ts"}');
    assert.equal(read.find((e) => e.event === "tool.result")!.data.ok, true);
    assert.match(text(read), /answer = 42/);
    const search = await turn(chatId, 'mcp: file {"action":"search","pattern":"answer"}');
    assert.match(search.find((e) => e.event === "tool.result")!.data.output, /app\.ts:1/);
    const tasks = await turn(chatId, "tasks: read the code, write the plan");
    assert.ok(tasks.some((e) => e.event === "task.update"));
  });

  it("implements a plan: back to the default agent, the plan pinned in every later request, compaction included", async () => {
    const chatId = await planChat();
    await turn(chatId, "Plan: 1. add the route 2. add the page");
    const plan = ((await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as any).messages.at(-1);
    assert.equal(plan.role, "assistant");

    const res = await f.s.api("POST", `/api/chats/${chatId}/implement-plan`, { messageId: plan.id });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(((await res.json()) as any).agent, null, "the chat runs as the default agent again");

    const events = await turn(chatId, IMPLEMENT_PLAN_MESSAGE);
    assert.equal(events.find((e) => e.event === "turn.start")!.data.context.agent, null);
    let wire = lastRequest();
    assert.ok(
      wire.tools!.some((t) => t.function.name === "shell"),
      "the default agent has the project's tools back",
    );
    const pinned = (w: Wire) => systemText(w).includes(plan.content);
    assert.ok(pinned(wire), "the plan is pinned in the request");
    assert.ok(!systemText(wire).includes(PLAN_AGENT.instructions), "no Plan instructions any more");

    // A compaction summarises the conversation (the plan's own message with it): the pin stays.
    for (let i = 0; i < 4; i++) await turn(chatId, `step ${i} ${"detail ".repeat(300)}`);
    const compacted = await f.s.api("POST", `/api/chats/${chatId}/compact`);
    assert.equal(compacted.status, 200, await compacted.clone().text());
    await turn(chatId, "go on");
    wire = lastRequest();
    assert.ok(
      wire.messages.some((m) => typeof m.content === "string" && m.content.startsWith("Earlier parts")),
      "the request carries a summary",
    );
    assert.ok(
      !wire.messages.some((m) => m.role === "assistant" && m.content === plan.content),
      "the plan's own message was summarised away",
    );
    assert.ok(pinned(wire), "the plan is still pinned after the compaction");
  });

  it("answers bad implement requests in words: 404, 400, 409, never a 500", async () => {
    const chatId = await planChat();
    await turn(chatId, "a plan");
    const messages = ((await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as any).messages;
    const user = messages.find((m: any) => m.role === "user");
    const answer = messages.at(-1);
    const other = await planChat();
    await turn(other, "another plan");
    const otherAnswer = ((await (await f.s.api("GET", `/api/chats/${other}`)).json()) as any).messages.at(-1);

    const implement = (id: string, body: unknown) => f.s.api("POST", `/api/chats/${id}/implement-plan`, body);
    assert.equal((await implement(chatId, { messageId: otherAnswer.id })).status, 404, "another chat's answer");
    assert.equal((await implement(chatId, { messageId: "m_nope" })).status, 404);
    assert.equal((await implement("c_nope", { messageId: answer.id })).status, 404);
    assert.equal((await implement(chatId, { messageId: user.id })).status, 400, "a user message is no plan");
    assert.equal((await implement(chatId, {})).status, 400);
    assert.equal((await implement(chatId, { messageId: answer.id, extra: 1 })).status, 400);

    writeProject({ defaultAgent: "Plan" });
    const refused = await implement(chatId, { messageId: answer.id });
    assert.equal(refused.status, 409);
    assert.match(((await refused.json()) as any).error.message, /default agent is Plan/);
    const chat = (await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as any;
    assert.equal(chat.agent, "Plan", "a refused implement changes nothing");
  });

  it("pins the plan only on the version of the conversation that holds it, and in a fork that copies it", async () => {
    const chatId = await planChat();
    await turn(chatId, "Plan: rename the module");
    const before = ((await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as any).messages;
    const asked = before.find((m: any) => m.role === "user");
    const plan = before.at(-1);
    assert.equal((await f.s.api("POST", `/api/chats/${chatId}/implement-plan`, { messageId: plan.id })).status, 200);
    const pinned = () => systemText(lastRequest()).includes(plan.content);
    await turn(chatId, IMPLEMENT_PLAN_MESSAGE);
    assert.ok(pinned(), "pinned on the version that holds the plan");
    const implemented = ((await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as any).messages.at(-1);

    // The first message edited: a version of the conversation without the plan.
    const edited = await send(f, chatId, { content: "Something else entirely", parentId: asked.id });
    assert.equal(edited.status, 200);
    await readEvents(edited);
    assert.ok(!pinned(), "the edited version never had the plan");
    await turn(chatId, "and then?");
    assert.ok(!pinned());

    // Back to the version with the plan: pinned again.
    const back = await f.s.api("PATCH", `/api/chats/${chatId}`, { leafId: implemented.id });
    assert.equal(back.status, 200, await back.clone().text());
    await turn(chatId, "go on");
    assert.ok(pinned(), "pinned again on its own version");

    // A fork after the plan keeps it; a fork from before it does not.
    const fork = async (messageId: string) =>
      ((await (await f.s.api("POST", `/api/chats/${chatId}/fork`, { messageId })).json()) as { id: string }).id;
    const after = await fork(implemented.id);
    await turn(after, "in the fork");
    assert.ok(pinned(), "a fork that copied the plan keeps it");
    const early = await fork(asked.id);
    assert.equal(f.s.runtime.planPins.pinnedId(early), undefined);
    await turn(early, "in the early fork");
    assert.ok(!pinned(), "a fork from before the plan has none");
  });

  it("forgets a deleted chat's pin", async () => {
    const chatId = await planChat();
    await turn(chatId, "a plan");
    const answer = ((await (await f.s.api("GET", `/api/chats/${chatId}`)).json()) as any).messages.at(-1);
    assert.equal((await f.s.api("POST", `/api/chats/${chatId}/implement-plan`, { messageId: answer.id })).status, 200);
    assert.equal(f.s.runtime.planPins.pinnedId(chatId), answer.id);
    assert.equal((await f.s.api("DELETE", `/api/chats/${chatId}`)).status, 204);
    assert.equal(f.s.runtime.planPins.pinnedId(chatId), undefined);
  });
});
