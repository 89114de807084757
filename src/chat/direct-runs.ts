// Runs straight from the composer, without a model round-trip (contract 6.5, 6.6): a defined agent on
// a task, `shell` or an MCP tool with the user's arguments, or a saved custom action. Each is a turn
// of its own on the chat's event stream (so `GET /api/chats/:id/stream` follows it and Stop cancels
// it), under the same gates, approvals and confinement as a model's call, stored as a card pair.
import fs from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { AppError, conflict, invalid } from "../platform/app-error";
import type { Chat } from "../shared/chats";
import type { StreamEvent } from "../shared/stream-events";
import type { ChatsRepo } from "./chats-repo";
import type { MessagesRepo } from "./messages-repo";
import { toolGate } from "../tools/gate";
import { runToolCall } from "../tools/tool-runner";
import { nativeTool } from "../tools/native-tools";
import type { ChatService } from "./chat-service";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import type { Subagents } from "./subagents";
import type { ToolEnvironment } from "./tool-environment";
import type { ActiveTurns } from "./turn-broadcast";

/**
 * Tools the composer may dispatch: the native tools that say so (`shell`, `web_fetch`) and MCP tools;
 * the native file tools never run this way (their text goes to the model).
 */
export function isDispatchable(tool: string): boolean {
  return nativeTool(tool)?.directlyInvocable === true || /^mcp__[a-z0-9-]{1,32}__.+$/.test(tool);
}

export type DirectRunsDeps = {
  chats: ChatsRepo;
  messages: MessagesRepo;
  chatService: ChatService;
  turns: ActiveTurns;
  tools: ToolEnvironment;
  subagents: Subagents;
};

type Turn = { turnId: string; emit: (event: StreamEvent) => void; signal: AbortSignal; root: string };

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString("base64url")}`;

export class DirectRuns {
  constructor(private readonly deps: DirectRunsDeps) {}

  /** `POST /api/tools/dispatch`: `shell` or an MCP tool, gated like a model's call. */
  async dispatch(
    snapshot: ProjectSnapshot,
    chat: Chat,
    tool: string,
    args: Record<string, unknown>,
    callId?: string,
  ): Promise<{ callId: string; ok: boolean; output: unknown }> {
    if (!isDispatchable(tool))
      throw invalid(
        `"${tool}" cannot be dispatched directly (only shell, web_fetch and MCP tools); send the text to the model instead`,
      );
    if (toolGate(tool, snapshot.gates) === "off")
      throw new AppError("forbidden", `the tool "${tool}" is off in this project`);
    if (tool.startsWith("mcp__")) {
      // validate() answers undefined when the arguments fit: only a missing manager is "no such tool".
      const mcp = this.deps.tools.deps.mcp;
      const problems = mcp ? mcp.validate(snapshot, tool, args) : [`no MCP tool "${tool}" in this project`];
      if (problems)
        throw invalid(
          `the arguments do not fit ${tool}'s schema`,
          problems.map((message) => ({ message })),
        );
    }
    const id = callId ?? newId("call");
    return this.inTurn(snapshot, chat, async (turn) => {
      const result = await this.callAndStore(snapshot, chat, turn, { id, name: tool, arguments: JSON.stringify(args) });
      return { callId: id, ok: result.ok, output: result.output };
    });
  }

  /** `POST /api/tools/subagent`: the agent's loop as a `subagent` card pair, then its text as an answer. */
  async subagent(
    snapshot: ProjectSnapshot,
    chat: Chat,
    agent: string,
    task: string,
  ): Promise<{ callId: string; agent: string; model: string; output: string }> {
    this.deps.subagents.requireAgent(snapshot, agent);
    if (toolGate("subagent", snapshot.gates) === "off")
      throw new AppError("forbidden", "subagents are off in this project");
    const callId = newId("call");
    return this.inTurn(snapshot, chat, async (turn) => {
      let model = this.deps.subagents.modelFor(snapshot, chat, agent) ?? "";
      const result = await this.callAndStore(
        snapshot,
        chat,
        turn,
        { id: callId, name: "subagent", arguments: JSON.stringify({ agent, task }) },
        async (args, id, signal) => {
          const ran = await this.deps.subagents.run({
            snapshot,
            chat,
            root: turn.root,
            agent: args.agent,
            task: args.task,
            callId: id,
            turnId: turn.turnId,
            signal,
            emit: turn.emit,
          });
          model = ran.model;
          return ran;
        },
      );
      const output = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
      if (result.ok) {
        // The agent's answer persists as an assistant message of its own.
        turn.emit({ event: "text.delta", data: { text: output } });
        this.deps.messages.append(chat.id, {
          role: "assistant",
          content: output,
          status: "complete",
          modelId: model || null,
          usage: result.usage ?? null,
          meta: { turnId: turn.turnId },
        });
      }
      return { callId, agent, model, output };
    });
  }

  /** `POST /api/actions/:id/run`: the action's command or tool call, as a dispatch. */
  async action(
    snapshot: ProjectSnapshot,
    chat: Chat,
    actionId: string,
  ): Promise<{ callId: string; ok: boolean; output: unknown }> {
    const action = snapshot.actions.actions.find((a) => a.id === actionId);
    if (!action) throw new AppError("not_found", `no action "${actionId}" in this project`);
    // Whatever an action runs (a command, a tool, an agent), it came with the repository: it runs only
    // in a project the user trusts (contract 7.1), whatever its form.
    if (!snapshot.trusted) {
      throw new AppError(
        "forbidden",
        `this project is not trusted to run its actions ("${actionId}"); review and trust it in Settings, This project`,
      );
    }
    const run = action.run;
    if (!run) throw invalid(`the action "${actionId}" has nothing to run`);
    if ("shell" in run) return this.dispatch(snapshot, chat, "shell", { cmd: run.shell });
    return this.dispatch(snapshot, chat, run.tool, run.arguments ?? {});
  }

  private async callAndStore(
    snapshot: ProjectSnapshot,
    chat: Chat,
    turn: Turn,
    call: { id: string; name: string; arguments: string },
    runSubagent?: Parameters<ToolEnvironment["context"]>[0]["runSubagent"],
  ) {
    // The card pair: an assistant step that made the call, and the tool message with its result.
    this.deps.messages.append(chat.id, {
      role: "assistant",
      content: "",
      status: "complete",
      modelId: null,
      meta: { turnId: turn.turnId, toolCalls: [call] },
    });
    const context = this.deps.tools.context({
      chatId: chat.id,
      snapshot,
      root: turn.root,
      turnId: turn.turnId,
      signal: turn.signal,
      emit: turn.emit,
      tools: [call.name],
      runSubagent,
    });
    const result = await runToolCall(call, context);
    const content = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
    this.deps.messages.append(chat.id, {
      role: "tool",
      content,
      status: "complete",
      meta: {
        turnId: turn.turnId,
        callId: call.id,
        name: call.name,
        ok: result.ok,
        arguments: result.arguments,
        ...(result.diff ? { diff: result.diff } : {}),
      },
    });
    if (result.usage) turn.emit({ event: "usage", data: result.usage });
    return result;
  }

  /** A turn of its own on the chat's stream; one at a time per chat (409 while another runs). */
  private async inTurn<T>(snapshot: ProjectSnapshot, chat: Chat, work: (turn: Turn) => Promise<T>): Promise<T> {
    const busy = () => conflict("this chat is already answering; cancel it or wait");
    if (this.deps.turns.isActive(chat.id)) throw busy();
    // A worktree chat's direct runs work in its worktree, as its turns do (409 once that is gone).
    const dir = this.deps.tools.workingDir(chat.id, snapshot.project.dir);
    const root = await fs.realpath(dir);
    // Again after the await: a turn that started meanwhile must not be replaced in the active turns.
    if (this.deps.turns.isActive(chat.id)) throw busy();
    const { broadcast, controller } = this.deps.turns.start(chat.id, this.deps.chats.lastEventId(chat.id) + 1);
    const turnId = newId("t");
    const emit = (event: StreamEvent) => broadcast.emit(event);
    emit({ event: "turn.start", data: { turnId, messageId: "", model: "" } });
    let finishReason = "stop";
    try {
      return await work({ turnId, emit, signal: controller.signal, root });
    } catch (error) {
      finishReason = "error";
      throw error;
    } finally {
      if (controller.signal.aborted) finishReason = "cancelled";
      emit({ event: "turn.end", data: { turnId, finishReason } });
      this.deps.chats.setLastEventId(chat.id, broadcast.lastId);
      this.deps.turns.finish(chat.id);
      this.deps.chatService.changed(chat);
    }
  }
}
