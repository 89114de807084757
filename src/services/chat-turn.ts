// One chat turn, as the spec's stream route describes it: hydrate the model with its provider
// connection, build the upstream messages (system prompt first, referenced files as user
// messages), stream the completion, forward it as numbered events, and store both messages.
import type { ResolvedSettings } from "../shared/settings";
import type { ProjectSnapshot } from "./project-snapshot";
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { conflict, invalid } from "../core/app-error";
import { messageStatusFor } from "../core/finish-reason";
import { modelEntries, userPricing } from "../core/model-entries";
import { isRetryableFailure, MAX_RETRIES, retryDelayMs } from "../core/retry-policy";
import { effectivePricing, estimateUsage, normalizeUsage, type Pricing } from "../core/usage";
import type { UpstreamUsage } from "../core/upstream-chunk";
import type { JsonObject } from "../core/settings-merge";
import type { Chat, Message, StreamBody } from "../shared/chats";
import type { StreamEvent } from "../shared/stream-events";
import { streamChatCompletion, type UpstreamMessage } from "../providers/gateway/chat-completions";
import { connectionSecrets, StreamDroppedError, UpstreamError } from "../providers/gateway/http";
import { withoutSecret } from "../core/upstream-error";
import type { ChatsRepo } from "../store/chats-repo";
import type { MessagesRepo } from "../store/messages-repo";
import type { ProjectRow } from "../store/projects-repo";
import type { RecentModelsRepo } from "../store/recent-models-repo";
import type { ChatService } from "./chat-service";
import type { ConnectionResolver, ResolvedConnection } from "./connection-resolver";
import type { ModelCatalog } from "./model-catalog";
import { fileMessageText, readReferencedFiles, type ReferencedFile } from "./referenced-files";
import type { SettingsService } from "./settings-service";
import type { ActiveTurns, TurnBroadcast } from "./turn-broadcast";
import type { Logger } from "./logger";

/** What a turn sends besides the transcript: system messages, and a receipt of what went upstream. */
export type TurnContext = { systemMessages: UpstreamMessage[]; receipt?: Record<string, unknown>; requestExtras?: Record<string, unknown> };
export interface TurnContextProvider {
  build(chat: Chat, snapshot: ProjectSnapshot): Promise<TurnContext>;
}

export type ChatTurnDeps = {
  chats: ChatsRepo;
  messages: MessagesRepo;
  chatService: ChatService;
  settings: SettingsService;
  connections: ConnectionResolver;
  catalog: ModelCatalog;
  recentModels: RecentModelsRepo;
  turns: ActiveTurns;
  log: Logger;
  context?: TurnContextProvider;
  /** Runs the writes that open a turn as one transaction. */
  transaction: <T>(work: () => T) => T;
  /** Base of the exponential backoff between retries (tests shorten it). */
  retryBaseMs?: number;
};

export type PreparedTurn = {
  chat: Chat;
  project: ProjectRow;
  settings: ResolvedSettings;
  resolved: ResolvedConnection;
  files: ReferencedFile[];
  context: TurnContext;
  content: string;
};

type Outcome = {
  text: string;
  reasoning: string;
  usage?: UpstreamUsage;
  finishReason: string;
  error?: { message: string; status?: number; retryable: boolean };
};

export class ChatTurns {
  constructor(private readonly deps: ChatTurnDeps) {}

  /** Everything that can be refused before anything is stored or sent (400/404/409). */
  async prepare(chat: Chat, project: ProjectRow, body: StreamBody): Promise<PreparedTurn> {
    if (this.deps.turns.isActive(chat.id)) throw conflict("this chat is already answering; cancel it or wait");
    // One read of the project serves the whole turn: settings, prompt, agent.
    const snapshot = await this.deps.settings.snapshot(project);
    const settings = snapshot.settings;
    const modelId = body.modelId ?? chat.modelId ?? settings.defaultModel;
    if (!modelId) throw invalid("choose a model for this chat first");
    // Independent lookups at once: they stand between the user's Enter and the first token.
    const [resolved, files, context] = await Promise.all([
      this.deps.connections.forModel(settings, modelId),
      readReferencedFiles(project.dir, body.referencedPaths ?? []),
      this.deps.context?.build(chat, snapshot) ?? Promise.resolve<TurnContext>({ systemMessages: [] }),
    ]);
    return { chat, project, settings, resolved, files, context, content: body.content };
  }

  /** Stores the user message, registers the live turn, and runs it to its end in the background. */
  start(prepared: PreparedTurn): TurnBroadcast {
    const { chat } = prepared;
    const { broadcast, controller } = this.deps.turns.start(chat.id, this.deps.chats.lastEventId(chat.id) + 1);
    const assistant = this.deps.transaction(() => this.storeUserTurn(prepared));
    this.deps.chatService.changed(chat);

    void this.run(prepared, assistant, broadcast, controller.signal)
      .catch((error) => {
        this.deps.log.error(`turn failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
        if (!broadcast.done) {
          broadcast.emit({ event: "error", data: { code: "internal", message: "Parley hit an unexpected error", retryable: true } });
          broadcast.emit({ event: "turn.end", data: { turnId: "unknown", finishReason: "error" } });
        }
      })
      .finally(() => {
        this.deps.chats.setLastEventId(chat.id, broadcast.lastId);
        this.deps.turns.finish(chat.id);
        this.deps.chatService.changed(chat);
      });
    return broadcast;
  }

  /** Referenced files, the user message, and an empty assistant message to stream into. */
  private storeUserTurn(prepared: PreparedTurn): Message {
    const { chat, resolved } = prepared;
    for (const file of prepared.files) {
      this.deps.messages.append(chat.id, { role: "user", content: fileMessageText(file), status: "complete", meta: { kind: "file", path: file.path } });
    }
    this.deps.messages.append(chat.id, {
      role: "user",
      content: prepared.content,
      status: "complete",
      meta: prepared.files.length > 0 ? { referencedPaths: prepared.files.map((f) => f.path) } : null,
    });
    const title = this.deps.chatService.titleFor(chat, prepared.content);
    this.deps.chats.update(chat.id, { modelId: resolved.modelId, ...(title ? { title } : {}) });
    this.deps.recentModels.touch(resolved.providerId, resolved.modelId);
    return this.deps.messages.append(chat.id, { role: "assistant", content: "", status: "streaming", modelId: resolved.modelId });
  }

  private async run(prepared: PreparedTurn, assistant: Message, broadcast: TurnBroadcast, signal: AbortSignal): Promise<void> {
    const { chat, settings, resolved, context } = prepared;
    const turnId = `t_${randomBytes(6).toString("base64url")}`;
    const messages = [...context.systemMessages, ...this.history(chat.id, assistant.id)];
    const emit = (event: StreamEvent) => broadcast.emit(event);
    emit({ event: "turn.start", data: { turnId, messageId: assistant.id, model: resolved.modelId, ...(context.receipt ? { context: context.receipt } : {}) } });

    // Live prices for the cost estimate, loaded in the background: a turn never waits for them.
    this.deps.catalog.warm("text", resolved.connection);
    const outcome = await this.stream(resolved, { model: resolved.modelId, messages, stream: true, ...context.requestExtras }, settings, signal, emit);
    if (outcome.error) {
      emit({
        event: "error",
        data: {
          code: "upstream_error",
          message: outcome.error.message,
          ...(outcome.error.status !== undefined ? { status: outcome.error.status } : {}),
          retryable: outcome.error.retryable,
        },
      });
    }
    const pricing = effectivePricing(
      userPricing(modelEntries(settings), resolved.modelId),
      this.deps.catalog.find(resolved.modelId, resolved.connection.baseUrl)?.pricing as Pricing | undefined,
    );
    const usage = outcome.usage
      ? normalizeUsage(outcome.usage, pricing, (field, value) => this.deps.log.warn(`the gateway reported an out-of-range ${field} (${String(value).slice(0, 40)}); clamped`))
      : estimateUsage(messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n"), outcome.text, pricing);
    emit({ event: "usage", data: usage });
    this.deps.messages.update(assistant.id, {
      content: outcome.text,
      status: messageStatusFor(outcome.finishReason, outcome.error !== undefined),
      usage,
      meta: {
        finishReason: outcome.finishReason,
        ...(outcome.reasoning ? { reasoning: outcome.reasoning } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
      },
    });
    emit({ event: "turn.end", data: { turnId, finishReason: outcome.finishReason } });
  }

  /** Streams with retries for 429/5xx and unreachable gateways, but only before anything arrived. */
  private async stream(
    resolved: ResolvedConnection,
    body: Parameters<typeof streamChatCompletion>[1],
    settings: ResolvedSettings,
    signal: AbortSignal,
    emit: (event: StreamEvent) => void,
  ): Promise<Outcome> {
    const outcome: Outcome = { text: "", reasoning: "", finishReason: "stop" };
    const autoRetry = settings.chat?.autoRetryFailedSends !== false;
    let received = false;
    for (let attempt = 0; ; attempt++) {
      try {
        for await (const part of streamChatCompletion(resolved.connection, body, signal)) {
          if (part.type === "text") {
            received = true;
            outcome.text += part.text;
            emit({ event: "text.delta", data: { text: part.text } });
          } else if (part.type === "reasoning") {
            received = true;
            outcome.reasoning += part.text;
            emit({ event: "reasoning.delta", data: { text: part.text } });
          } else if (part.type === "usage") {
            outcome.usage = part.usage;
          } else if (part.type === "finish") {
            outcome.finishReason = part.reason;
          } else if (part.type === "error") {
            received = true;
            const message = withoutSecret(part.message, connectionSecrets(resolved.connection));
            outcome.error = { message, ...(part.status !== undefined ? { status: part.status } : {}), retryable: isRetryableFailure(part.status, message) };
            outcome.finishReason = "error";
          }
        }
        return outcome;
      } catch (error) {
        if (signal.aborted) return { ...outcome, finishReason: "cancelled" };
        const status = error instanceof UpstreamError ? error.status : undefined;
        const message =
          error instanceof UpstreamError || error instanceof StreamDroppedError
            ? error.message
            : `cannot reach the gateway (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
        const retryable = isRetryableFailure(status, message);
        // A stream cut before its first token may be sent again; one cut mid-answer is not resent.
        if (!received && retryable && !(error instanceof StreamDroppedError) && autoRetry && attempt < MAX_RETRIES) {
          const delay = retryDelayMs(attempt, this.deps.retryBaseMs ?? 500, error instanceof UpstreamError ? error.retryAfter : undefined);
          try {
            await sleep(delay, undefined, { signal });
          } catch {
            return { ...outcome, finishReason: "cancelled" };
          }
          continue;
        }
        return { ...outcome, finishReason: "error", error: { message, ...(status !== undefined ? { status } : {}), retryable } };
      }
    }
  }

  /** The stored transcript as upstream messages; the turn's own empty assistant row is left out. */
  private history(chatId: string, pendingAssistantId: string): UpstreamMessage[] {
    const out: UpstreamMessage[] = [];
    for (const message of this.deps.messages.listByChat(chatId)) {
      if (message.id === pendingAssistantId) continue;
      if (message.role === "user") out.push({ role: "user", content: message.content });
      else if (message.role === "assistant" && message.content) out.push({ role: "assistant", content: message.content });
    }
    return out;
  }
}
