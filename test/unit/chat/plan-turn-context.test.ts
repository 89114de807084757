// What a turn of a Plan chat sends besides the transcript: the Plan agent's own tools (narrowed by the
// chat and the gates, never widened by a preset), its instructions after the chat's prompt, and, in
// any chat that implements a plan, that plan last, in the pinned `instructions` layer.
import assert from "node:assert/strict";
import type { Chat } from "../../../src/shared/chats";
import type { ResolvedSettings } from "../../../src/shared/settings";
import { PromptTurnContext } from "../../../src/chat/turn-context";
import { ProjectSnapshot } from "../../../src/projects/project-snapshot";
import { PLAN_AGENT, isReservedAgentName } from "../../../src/projects/built-in-agents";
import type { ChatPrompt, PromptService } from "../../../src/prompts/prompt-service";
import { pinnedPlanText } from "../../../src/chat/plan/plan-pins";
import { pinnedIndices } from "../../../src/chat/context/compaction-plan";

const chat = (fields: Partial<Chat> = {}): Chat => ({
  id: "c_1",
  projectId: "p_1",
  title: "New chat",
  promptId: null,
  cardPromptId: null,
  modelId: "fake/tools",
  agent: "Plan",
  tools: null,
  agentFiles: null,
  skills: null,
  leafId: null,
  worktreeBranch: null,
  createdAt: "",
  updatedAt: "",
  ...fields,
});

/** A project whose settings are `project` as given (no files read: agent files, skills and environment off). */
function snapshot(project: Record<string, unknown> = {}): ProjectSnapshot {
  const value = { agentFiles: false, skills: false, chat: { environment: false }, ...project };
  return new ProjectSnapshot(
    { id: "p_1", dir: "/nowhere", createdAt: "" },
    { raw: value, value, issues: [], path: "/nowhere/.app.json", dbBacked: false },
    (layer) => layer as ResolvedSettings,
    true,
  );
}

const prompt = (id: string, content: string, tools?: string[]): ChatPrompt =>
  ({ id, title: id, content, scope: "project", ...(tools ? { preset: { tools } } : {}) }) as unknown as ChatPrompt;

function turnContext(prompts: ChatPrompt[] = [], pinned?: string) {
  const service = {
    resolve: (_s: unknown, id: string) => prompts.find((p) => p.id === id),
  } as unknown as PromptService;
  return new PromptTurnContext(
    service,
    () => [{ id: "mcp__calc__sum", description: "Adds" }],
    () => pinned,
  );
}

describe("a Plan chat's turn context", () => {
  it("offers the Plan tools only and tells the model it plans", async () => {
    const context = await turnContext().build(chat(), snapshot());
    assert.deepEqual(context.tools, ["file:read", "ask_user", "task"]);
    assert.deepEqual(
      context.systemMessages.map((m) => m.content),
      [PLAN_AGENT.instructions],
    );
    assert.equal(context.receipt?.agent, "Plan");
    assert.deepEqual(context.receipt?.tools, ["file:read", "ask_user", "task"]);
  });

  it("keeps the chat's prompt first, while its preset adds no tool; the allowlist and gates still narrow", async () => {
    const prompts = [prompt("builder", "You build things.", ["shell", "file", "mcp__calc__sum"])];
    const context = await turnContext(prompts).build(
      chat({ promptId: "builder", tools: ["file", "task"] }),
      snapshot({ toolGates: { task: "off", shell: "allow" } }),
    );
    assert.deepEqual(context.tools, ["file:read"]);
    assert.deepEqual(
      context.systemMessages.map((m) => m.content),
      ["You build things.", PLAN_AGENT.instructions],
    );
  });

  it("is the built-in Plan even when the project's default agent is Plan and the project defines its own", async () => {
    const prompts = [prompt("impostor-prompt", "Write everything.")];
    const context = await turnContext(prompts).build(
      chat({ agent: null }),
      snapshot({
        defaultAgent: "Plan",
        agents: [{ name: "Plan", description: "impostor", tools: ["shell"], promptId: "impostor-prompt" }],
      }),
    );
    assert.deepEqual(context.tools, ["file:read", "ask_user", "task"]);
    assert.ok(!context.systemMessages.some((m) => m.content === "Write everything."));
  });

  it("leaves a chat of another agent as it was: every project tool, no Plan instructions", async () => {
    const context = await turnContext().build(chat({ agent: null }), snapshot());
    assert.ok(context.tools!.includes("shell") && context.tools!.includes("file"));
    assert.ok(context.tools!.includes("mcp__calc__sum"));
    assert.equal(context.systemMessages.length, 0);
    assert.equal(context.receipt?.agent, null);
  });

  it("sends a chat's pinned plan last, in the instructions layer, which compaction never touches", async () => {
    const plan = "1. Add the route.\n2. Add the page.";
    const context = await turnContext([], plan).build(chat({ agent: null }), snapshot());
    assert.equal(context.systemMessages.at(-1)!.content, pinnedPlanText(plan));
    assert.equal(context.systemLayers!.at(-1), "instructions");
    const layered = context.systemMessages.map((message, i) => ({ message, layer: context.systemLayers![i]! }));
    assert.ok(pinnedIndices(layered).has(layered.length - 1));
  });
});

describe("built-in agent names", () => {
  it("are reserved in any letter case, and other names are not", () => {
    for (const name of ["Plan", "plan", "PLAN"]) assert.equal(isReservedAgentName(name), true, name);
    for (const name of ["Planner", "reviewer", "plan-b"]) assert.equal(isReservedAgentName(name), false, name);
  });
});
