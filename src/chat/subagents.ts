// A subagent run (contract 6.5): one of the project's agents works on a task in its own agent loop,
// with its prompt as the system message, its pinned model (else the chat's), and its tool allowlist
// under the project's gates, never `subagent` itself (no nesting). Its tool events carry the calling
// card's id; its usage counts in the calling turn; its final text is the result.
import { AppError } from "../platform/app-error";
import type { UpstreamMessage } from "./transcript";
import type { Chat } from "../shared/chats";
import type { StreamEvent } from "../shared/stream-events";
import type { Usage } from "../shared/usage";
import type { RequestsRepo } from "./requests-repo";
import type { MessagesRepo } from "./messages-repo";
import { runAgentLoop } from "./agent-loop";
import { toolGate } from "../tools/gate";
import { NATIVE_TOOLS } from "../tools/native-tools";
import { offeredTools } from "../tools/offered-tools";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import type { PromptService } from "../prompts/prompt-service";
import type { ToolEnvironment } from "./tool-environment";
import type { UntrustedInput } from "../tools/untrusted-input";

export type SubagentRun = {
  snapshot: ProjectSnapshot;
  chat: Chat;
  root: string;
  agent: string;
  task: string;
  /** The `subagent` card this run belongs to: its tool events and stored results carry it. */
  callId: string;
  turnId: string;
  signal: AbortSignal;
  emit: (event: StreamEvent) => void;
  /** The calling turn's memory of untrusted input: what either reads makes the other's state changes ask. */
  untrusted?: UntrustedInput;
};

export type SubagentResult = { ok: boolean; output: string; model: string; usage?: Usage };

export class Subagents {
  constructor(
    private readonly env: ToolEnvironment,
    private readonly prompts: PromptService,
    private readonly messages: MessagesRepo,
    /** The chat's request ledger: a subagent's requests are the chat's too (cause `subagent`). */
    private readonly requests?: RequestsRepo,
  ) {}

  /** 404 for an agent the project does not define. */
  requireAgent(snapshot: ProjectSnapshot, name: string) {
    const agent = snapshot.agents.agents.find((a) => a.name === name);
    if (!agent) throw new AppError("not_found", `no agent "${name}" in this project`);
    return agent;
  }

  /** The model the agent runs on: its pin, else the chat's, else the default. */
  modelFor(snapshot: ProjectSnapshot, chat: Chat, name: string): string | undefined {
    return this.requireAgent(snapshot, name).model ?? chat.modelId ?? snapshot.settings.defaultModel;
  }

  async run(run: SubagentRun): Promise<SubagentResult> {
    const { snapshot, chat, callId } = run;
    const agent = this.requireAgent(snapshot, run.agent);
    const modelId = this.modelFor(snapshot, chat, run.agent);
    if (!modelId)
      return {
        ok: false,
        output: `the agent "${agent.name}" has no model: pin one in its settings or choose one for the chat`,
        model: "",
      };
    let resolved;
    try {
      resolved = await this.env.deps.connections.forModel(snapshot.settings, modelId);
    } catch (error) {
      return { ok: false, output: (error as Error).message, model: modelId };
    }
    const prompt = agent.promptId ? this.prompts.find(snapshot, agent.promptId) : undefined;
    const gates = snapshot.gates;
    const mcpTools = this.env.deps.mcp?.toolsFor(snapshot) ?? [];
    const candidates = agent.tools ?? [...NATIVE_TOOLS.map((t) => t.name), ...mcpTools.map((t) => t.id)];
    // The agent's allowlist under the project's gates; a listed tool that is `off` is silently not offered.
    const tools = candidates.filter((name) => name !== "subagent" && toolGate(name, gates) !== "off");
    let failure: string | undefined;
    const messages: UpstreamMessage[] = [
      ...(prompt ? [{ role: "system" as const, content: prompt.content }] : []),
      { role: "user", content: run.task },
    ];
    let step = 0;
    const result = await runAgentLoop({
      resolved,
      messages,
      tools: this.env.modelTakesTools(snapshot, resolved) ? offeredTools(tools, gates, mcpTools) : [],
      settings: snapshot.settings,
      retryBaseMs: this.env.retryBaseMs,
      signal: run.signal,
      // Its text is the result, not the chat's answer, and its failure is the card's: only its tool
      // events and usage reach the chat.
      emit: (event) => {
        if (event.event === "error") failure = event.data.message;
        else if (event.event !== "text.delta" && event.event !== "reasoning.delta") run.emit(event);
      },
      toolContext: this.env.context({
        chatId: chat.id,
        snapshot,
        root: run.root,
        turnId: run.turnId,
        signal: run.signal,
        emit: run.emit,
        tools,
        parentCallId: callId,
        ...(run.untrusted ? { untrusted: run.untrusted } : {}),
      }),
      callIdPrefix: `${callId}_sub`,
      hooks: {
        beforeStep: (next) => {
          step = next;
        },
        stepDone: () => {},
        stopped: () => {},
        toolDone: (call, outcome, content) => {
          this.messages.append(chat.id, {
            role: "tool",
            content,
            status: "complete",
            meta: {
              turnId: run.turnId,
              callId: call.id,
              name: call.name,
              ok: outcome.ok,
              arguments: outcome.arguments,
              parentCallId: callId,
              ...(outcome.diff ? { diff: outcome.diff } : {}),
            },
          });
        },
        usageOf: (outcome, sent) => {
          const usage = this.env.stepUsage(outcome, sent, this.env.pricing(snapshot, resolved));
          this.requests?.record(
            chat.id,
            { turnId: run.turnId, step, cause: "subagent", model: resolved.modelId },
            usage,
          );
          return usage;
        },
        toolsRefused: () => void this.env.rememberNoTools(resolved.modelId),
      },
    });
    const ok = result.finishReason !== "error" && result.finishReason !== "cancelled";
    const output = failure
      ? `the agent stopped: ${failure}`
      : result.text || (ok ? "(the agent gave no answer)" : `the agent stopped (${result.finishReason})`);
    return { ok, output, model: resolved.modelId, ...(result.total ? { usage: result.total } : {}) };
  }
}
