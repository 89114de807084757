// One chat turn, as the spec's stream route and the contract's agent loop (6.3) describe it: hydrate
// the model with its provider connection, build the upstream messages (system prompt first, referenced
// files as user messages), then stream steps: each step's tool calls run (gated, approved, confined)
// and their results go back up, until a step calls no tool, the step limit or the budget is reached,
// the user cancels, or the upstream fails. Everything is forwarded as numbered events and stored.
import type { ToolEnvironment } from "./tool-environment";
import type { Subagents } from "./subagents";
import { realpathSync } from "node:fs";
import { randomBytes } from "node:crypto";
import type { ResolvedSettings } from "../shared/settings";
import { conflict, invalid, notFound } from "../platform/app-error";
import { messageStatusFor } from "./finish-reason";
import type { Chat, Message, StreamBody } from "../shared/chats";
import type { StreamEvent } from "../shared/stream-events";
import type { UpstreamMessage } from "../gateway/chat-completions";
import type { ChatsRepo } from "./chats-repo";
import { newMessageId, type MessagesRepo, type NewMessage } from "./messages-repo";
import type { ProjectRow } from "../projects/projects-repo";
import type { RecentModelsRepo } from "./recent-models-repo";
import { offeredTools, type OfferableMcpTool, type UpstreamTool } from "../tools/offered-tools";
import { budgetTools, DEFAULT_TOOL_BUDGET, runToolSearch } from "../tools/tool-search";
import type { McpManager } from "../tools/mcp/manager";
import { runAgentLoop } from "./agent-loop";
import type { ChatService } from "./chat-service";
import type { ConnectionResolver, ResolvedConnection } from "../gateway/connection-resolver";
import type { ModelCatalog } from "../gateway/model-catalog";
import type { ProjectSnapshot } from "../projects/project-snapshot";
import { fileMessageText, readReferencedFiles, type ReferencedFile } from "./referenced-files";
import { readReferencedResources } from "./referenced-resources";
import { estimateCost } from "./usage";
import type { RequestsRepo } from "./requests-repo";
import type { ContextLayer } from "./context/context-layers";
import { ContextMeter, contextWindow, type ContextReport } from "./context/context-meter";
import { TokenCounter } from "./context/token-count";
import { buildRequest, type RequestRow } from "./context/request-messages";
import { compactionBudget } from "./context/compaction-plan";
import { COMPACTION_DEFAULTS } from "../shared/compaction";
import { CompactionFailed, compactionEvent, compactionSettings, type Compactor } from "./compaction/compactor";
import type { SettingsService } from "../settings/settings-service";
import type { ActiveTurns, TurnBroadcast } from "./turn-broadcast";
import type { Logger } from "../platform/logger";
import { UntrustedInput } from "../tools/untrusted-input";

/** What a turn sends besides the transcript: system messages, and a receipt of what went upstream. */
export type TurnContext = {
  systemMessages: UpstreamMessage[];
  /** Which context layer each system message counts under (`system` or `instructions`; contract 7.3). */
  systemLayers?: ContextLayer[];
  receipt?: Record<string, unknown>;
  requestExtras?: Record<string, unknown>;
  /** The turn's effective tool set (allowlist, preset, then the gates; `off` removed). */
  tools?: string[];
  /** What the project's MCP servers say about their tools (for the upstream tool list). */
  mcpTools?: OfferableMcpTool[];
};
export interface TurnContextProvider {
  /**
   * `dir`: the chat's working folder, where agent files, skills and the environment are read. `under`:
   * where the turn's rows go (an edit's or a retry's branch point, null for a new first message), when
   * not under the chat's leaf: the version of the conversation the request is made of.
   */
  build(chat: Chat, snapshot: ProjectSnapshot, dir?: string, under?: string | null): Promise<TurnContext>;
}

export type ChatTurnDeps = {
  chats: ChatsRepo;
  messages: MessagesRepo;
  /** The request ledger (contract 7.3): one row per upstream request. */
  requests?: RequestsRepo;
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
  mcp?: McpManager;
  tools: ToolEnvironment;
  subagents: Subagents;
  /** Compaction (contract 7.3); without it, a long chat is sent whole. */
  compactor?: Compactor;
};

export type PreparedTurn = {
  chat: Chat;
  project: ProjectRow;
  /** The project's real path, where tools run. */
  root: string;
  snapshot: ProjectSnapshot;
  settings: ResolvedSettings;
  resolved: ResolvedConnection;
  files: ReferencedFile[];
  context: TurnContext;
  content: string;
  /** Whether the model is offered tools at all (not when it cannot use them). */
  takesTools: boolean;
  /** The context layer of each message of the first request (filled by `start`). */
  layers: ContextLayer[];
  /**
   * Where the turn's rows go (contract 7.4): under the chat's leaf (undefined), or under this message,
   * or as a new first message (null), for an edit or a regenerate. A regenerate stores no user rows.
   */
  branchFrom?: string | null;
  regenerate: boolean;
};

const busyChat = () => conflict("this chat is already answering; cancel it or wait");
const compactingChat = () => conflict("this chat is being compacted; send again in a moment");

/** A turn's id and its (first) assistant message's id, known before anything is stored. */
type TurnIds = { turnId: string; assistantId: string };

/** A turn's request: its system messages, then the transcript with its compactions applied. */
function firstRequest(context: TurnContext, rows: readonly RequestRow[]) {
  return buildRequest({ messages: context.systemMessages, layers: context.systemLayers }, rows);
}

/** The rows a turn stores for the user: each referenced file, then the message that referenced them. */
function userTurnRows(prepared: PreparedTurn): NewMessage[] {
  if (prepared.regenerate) return [];
  const { files } = prepared;
  const projectFiles = files.filter((f) => !f.resource);
  return [
    ...files.map((file): NewMessage => ({
      role: "user",
      content: fileMessageText(file),
      status: "complete",
      meta: file.resource ? { kind: "resource", path: file.path, ...file.resource } : { kind: "file", path: file.path },
    })),
    {
      role: "user",
      content: prepared.content,
      status: "complete",
      meta: projectFiles.length > 0 ? { referencedPaths: projectFiles.map((f) => f.path) } : null,
    },
  ];
}

export class ChatTurns {
  constructor(private readonly deps: ChatTurnDeps) {}

  /**
   * Whether the chat is answering or compacting. Both store rows under the chat's leaf when they
   * finish (a turn's later steps and results, a compaction's entry), so its leaf must not move
   * meanwhile: a version switch then would hang those rows on another branch than the one they were
   * computed from.
   */
  isBusy(chatId: string): boolean {
    return this.deps.turns.isActive(chatId) || (this.deps.compactor?.isBusy(chatId) ?? false);
  }

  /** Everything that can be refused before anything is stored or sent (400/404/409). */
  async prepare(chat: Chat, project: ProjectRow, body: StreamBody): Promise<PreparedTurn> {
    if (this.deps.turns.isActive(chat.id)) throw busyChat();
    if (this.deps.compactor?.isBusy(chat.id)) throw compactingChat();
    // A worktree chat works in its worktree (409 once that is gone: never in the project's own tree).
    const dir = this.deps.tools.workingDir(chat.id, project.dir);
    // One read of the project serves the whole turn: settings, prompt, agent.
    const snapshot = await this.deps.settings.snapshot(project);
    const settings = snapshot.settings;
    // MCP servers start on first need; the turn waits a while (contract 7.3: up to 10 s) for those
    // still starting, so a new server's tools are offered in the first turn. Nothing waits when all
    // are up; past the wait, the cached tools of a server still starting are offered.
    const serversStarted = this.deps.mcp?.whenStarted(snapshot) ?? Promise.resolve();
    const modelId = body.modelId ?? chat.modelId ?? settings.defaultModel;
    if (!modelId) throw invalid("choose a model for this chat first");
    const branch = this.branchOf(chat, body);
    // Independent lookups at once: they stand between the user's Enter and the first token.
    const [resolved, files, resources, context] = await Promise.all([
      // The catalog holds the model's window, which the meter and compaction need from the first
      // request on: read once per gateway (then cached for an hour), never again while cached.
      this.deps.connections.forModel(settings, modelId).then(async (connection) => {
        if (!this.deps.catalog.cached("text", connection.connection.baseUrl))
          await this.deps.catalog.list("text", connection.connection).catch(() => undefined);
        return connection;
      }),
      readReferencedFiles(dir, body.referencedPaths ?? []),
      readReferencedResources(this.deps.mcp, snapshot, body.referencedResources ?? []),
      serversStarted.then(
        () =>
          this.deps.context?.build(chat, snapshot, dir, branch.from) ??
          Promise.resolve<TurnContext>({ systemMessages: [] }),
      ),
    ]);
    // The project's real path: a synchronous realpath is microseconds, a thread-pool one a round trip.
    return {
      chat,
      project,
      snapshot,
      root: realpathSync.native(dir),
      settings,
      resolved,
      files: [...files, ...resources],
      context,
      content: branch.content,
      takesTools: this.deps.tools.modelTakesTools(snapshot, resolved),
      layers: [],
      branchFrom: branch.from,
      regenerate: body.regenerate !== undefined,
    };
  }

  /**
   * Where an edit or a regenerate branches off (404 for a message of another chat): a regenerate
   * answers the user message its answer came from again; an edit goes beside the edited message's
   * turn, before the files it referenced (the new message brings its own).
   */
  private branchOf(chat: Chat, body: StreamBody): { from?: string | null; content: string } {
    const messages = this.deps.messages;
    const find = (id: string) => {
      const message = messages.inChat(chat.id, id);
      if (!message) throw notFound(`no message ${id} in this chat`);
      return message;
    };
    const isTurnText = (m: Message) => m.role === "user" && !m.meta?.kind;
    if (body.regenerate !== undefined) {
      const answer = find(body.regenerate);
      if (answer.role !== "assistant") throw invalid("regenerate names an answer (an assistant message)");
      const asked = messages.pathTo(answer.id).findLast(isTurnText);
      if (!asked) throw invalid("that answer has no user message before it to answer again");
      return { from: asked.id, content: asked.content };
    }
    const content = body.content ?? "";
    if (body.parentId === undefined) return { content };
    if (body.parentId === null) return { from: null, content };
    const parent = find(body.parentId);
    if (!isTurnText(parent)) return { from: parent.id, content };
    // The edited message itself: its turn starts at the first of the file rows right before it.
    const path = messages.pathTo(parent.id);
    let first = path.length - 1;
    while (first > 0 && path[first - 1]!.role === "user" && path[first - 1]!.meta?.kind) first--;
    return { from: path[first]!.parentId, content };
  }

  /** The request the chat would send now (no new message): its messages, tools and window. */
  private async requestNow(chat: Chat, project: ProjectRow) {
    const snapshot = await this.deps.settings.snapshot(project);
    const modelId = chat.modelId ?? snapshot.settings.defaultModel;
    if (!modelId) throw invalid("choose a model for this chat first");
    // The meter reads a worktree chat's files where its turns would (the project's once that is gone).
    let dir = project.dir;
    try {
      dir = this.deps.tools.workingDir(chat.id, dir);
    } catch {
      // A discarded worktree: the meter still shows what the chat holds.
    }
    const [resolved, context] = await Promise.all([
      this.deps.connections.forModel(snapshot.settings, modelId),
      this.deps.context?.build(chat, snapshot, dir) ?? Promise.resolve<TurnContext>({ systemMessages: [] }),
    ]);
    // Nothing streams here: the catalog may be read (once, then cached) for the model's window.
    const listed = await this.deps.catalog.list("text", resolved.connection).catch(() => []);
    const window = contextWindow(
      snapshot.settings,
      resolved.modelId,
      listed.find((m) => m.id === resolved.modelId)?.contextLength,
    );
    await TokenCounter.load().catch(() => undefined);
    const all = this.deps.tools.modelTakesTools(snapshot, resolved)
      ? offeredTools(context.tools ?? [], snapshot.gates, context.mcpTools, snapshot.agents.agents.length > 0)
      : [];
    return { snapshot, resolved, context, tools: this.budgeted(all, snapshot.settings, window).offered, window };
  }

  /**
   * The tools a request offers under `chat.toolBudget` (contract 7.3). Counted only once the tokenizer
   * has loaded (it is warmed at start-up): a turn never waits for it, and until then offers all.
   */
  private budgeted(tools: UpstreamTool[], settings: ResolvedSettings, window: number) {
    const counter = TokenCounter.loaded();
    if (!counter || tools.length === 0) return { offered: tools, deferred: [] };
    return budgetTools(tools, counter.countTools(tools), window, settings.chat?.toolBudget ?? DEFAULT_TOOL_BUDGET);
  }

  /**
   * The context meter for the request the chat would send now (its stored transcript, system layers
   * and tools; no new message): what `GET /api/chats/:id/context` answers, an estimate until a turn
   * has run against the upstream.
   */
  async contextNow(chat: Chat, project: ProjectRow): Promise<ContextReport> {
    const [{ snapshot, resolved, context, tools, window }, counter] = await Promise.all([
      this.requestNow(chat, project),
      TokenCounter.load(),
    ]);
    const { messages, layers } = firstRequest(context, this.deps.messages.listByChat(chat.id));
    const report = new ContextMeter(counter, window, layers).measure(messages, tools);
    const pricing = this.deps.tools.pricing(snapshot, resolved);
    // Before the user sends: the prompt alone, priced without any cache discount (an upper bound).
    const nextRequestCost = estimateCost({ promptTokens: report.used, completionTokens: 0, cachedTokens: 0 }, pricing);
    return { ...report, nextRequestCost };
  }

  /**
   * "Compact now" (`POST /api/chats/:id/compact`): the stored entry; 409 while the chat answers or
   * when there is nothing to compact yet, 502 when the summary fails (nothing is stored then).
   */
  async compactNow(chat: Chat, project: ProjectRow): Promise<Message> {
    const compactor = this.deps.compactor;
    if (!compactor) throw conflict("compaction is not available here");
    if (this.deps.turns.isActive(chat.id)) throw busyChat();
    const { snapshot, resolved, context, tools, window } = await this.requestNow(chat, project);
    if (this.deps.turns.isActive(chat.id)) throw busyChat();
    const entry = await compactor.compact({
      chatId: chat.id,
      system: { messages: context.systemMessages, layers: context.systemLayers },
      tools,
      window,
      settings: snapshot.settings,
      chatModel: resolved.modelId,
      reason: "manual",
      force: true,
      turnId: `t_${randomBytes(6).toString("base64url")}`,
      step: 0,
      signal: new AbortController().signal,
    });
    if (!entry) throw conflict("nothing to compact yet: the conversation has no older part to summarise");
    this.deps.chatService.changed(chat);
    return entry;
  }

  /**
   * Registers the live turn, sends its first upstream request, stores the user's message, and runs
   * the turn to its end in the background. The store waits until the request has left: undici
   * writes a request on a reused connection in the event loop's next check phase (it first lets
   * the connection report anything pending), so every synchronous step taken after dispatching
   * delays the request. Stored from an immediate queued after undici's, the message is written
   * while the gateway works, and before the answer can be read (a later poll phase). The loop's
   * hooks store it first if they ever come sooner, so nothing is updated before it exists.
   */
  start(prepared: PreparedTurn): TurnBroadcast {
    const { chat } = prepared;
    // Checked again: two messages sent at once both passed `prepare`, which waits on files.
    if (this.deps.turns.isActive(chat.id)) throw busyChat();
    if (this.deps.compactor?.isBusy(chat.id)) throw compactingChat();
    const turn: TurnIds = { turnId: `t_${randomBytes(6).toString("base64url")}`, assistantId: newMessageId() };
    const userRows = userTurnRows(prepared);
    // The upstream transcript: what is stored, then this turn's rows (not stored yet). Read before
    // the turn is registered: a failure here must not leave the chat "already answering".
    const before =
      prepared.branchFrom === undefined
        ? this.deps.messages.listByChat(chat.id)
        : this.deps.messages.pathTo(prepared.branchFrom);
    const { messages, layers } = firstRequest(prepared.context, [...before, ...userRows]);
    prepared.layers = layers;
    const { broadcast, controller } = this.deps.turns.start(chat.id, this.deps.chats.lastEventId(chat.id) + 1);
    let stored = false;
    const storeTurn = () => {
      if (stored) return;
      stored = true;
      this.deps.transaction(() => this.storeUserTurn(prepared, userRows, turn.assistantId));
      this.deps.chatService.changed(chat);
    };
    broadcast.emit({
      event: "turn.start",
      data: {
        turnId: turn.turnId,
        messageId: turn.assistantId,
        model: prepared.resolved.modelId,
        ...(prepared.context.receipt
          ? // What went upstream: no tools for a model that cannot use them.
            { context: prepared.takesTools ? prepared.context.receipt : { ...prepared.context.receipt, tools: [] } }
          : {}),
      },
    });
    const running = this.run(prepared, turn, messages, broadcast, controller.signal, storeTurn);
    setImmediate(() => {
      try {
        storeTurn();
      } catch (error) {
        // Nothing of the turn was kept: it is called back, and the user is told.
        this.deps.log.error(`cannot store a chat turn: ${(error as Error).message}`);
        broadcast.emit({
          event: "error",
          data: { code: "internal", message: "Parley could not save this message; send it again", retryable: true },
        });
        controller.abort();
      }
    });

    void running
      .catch((error) => {
        this.deps.log.error(`turn failed unexpectedly: ${(error as Error).stack ?? String(error)}`);
        if (!broadcast.done) {
          broadcast.emit({
            event: "error",
            data: { code: "internal", message: "Parley hit an unexpected error", retryable: true },
          });
          broadcast.emit({ event: "turn.end", data: { turnId: turn.turnId, finishReason: "error" } });
        }
      })
      .finally(() => {
        this.deps.chats.setLastEventId(chat.id, broadcast.lastId);
        this.deps.turns.finish(chat.id);
        this.deps.chatService.changed(chat);
      });
    return broadcast;
  }

  /** This turn's referenced files, the user message, and the empty assistant message to stream into. */
  private storeUserTurn(prepared: PreparedTurn, userRows: NewMessage[], assistantId: string): void {
    const { chat, resolved } = prepared;
    if (prepared.branchFrom !== undefined) this.deps.messages.setLeaf(chat.id, prepared.branchFrom);
    for (const row of userRows) this.deps.messages.append(chat.id, row);
    const title = this.deps.chatService.titleFor(chat, prepared.content);
    this.deps.chats.update(chat.id, { modelId: resolved.modelId, ...(title ? { title } : {}) });
    this.deps.recentModels.touch(resolved.providerId, resolved.modelId);
    this.deps.messages.append(
      chat.id,
      { role: "assistant", content: "", status: "streaming", modelId: resolved.modelId },
      assistantId,
    );
  }

  /** Streams the turn's steps; `start` has emitted `turn.start`. */
  private async run(
    prepared: PreparedTurn,
    turn: TurnIds,
    messages: UpstreamMessage[],
    broadcast: TurnBroadcast,
    signal: AbortSignal,
    storeTurn: () => void,
  ): Promise<void> {
    const { chat, settings, resolved, context } = prepared;
    const { turnId } = turn;
    const emit = (event: StreamEvent) => broadcast.emit(event);
    // Nothing here may wait (an await would let the turn's store run before the request leaves, see
    // `start`): the meter is made once the tokenizer is there (loaded in the background at start-up)
    // and used only after each request has left.
    const window = contextWindow(
      settings,
      resolved.modelId,
      this.deps.catalog.find(resolved.modelId, resolved.connection.baseUrl)?.contextLength,
    );
    // A tokenizer that cannot load leaves the turn without a meter, never without an answer. Loaded
    // already (it is warmed at start-up), the meter is there at once: compaction's check before the
    // first request needs it synchronously.
    let meter: ContextMeter | undefined;
    const makeMeter = (counter: TokenCounter) => (meter = new ContextMeter(counter, window, prepared.layers));
    const loadedCounter = TokenCounter.loaded();
    const meterReady: Promise<ContextMeter | undefined> = loadedCounter
      ? Promise.resolve(makeMeter(loadedCounter))
      : TokenCounter.load().then(makeMeter, (error: Error) => {
          this.deps.log.warn(`no context meter for this turn: ${error.message}`);
          return undefined;
        });
    const compaction = compactionSettings(settings, window);
    const autoCompaction = (settings.chat?.compaction?.auto ?? COMPACTION_DEFAULTS.auto) && this.deps.compactor;
    /** Compacts the turn's request in place; whether it changed. A failure is a notice, never the turn's end. */
    const compact = async (
      reason: "auto" | "overflow",
      sent: UpstreamMessage[],
      tools: readonly unknown[],
      atStep: number,
    ): Promise<boolean> => {
      if (!this.deps.compactor) return false;
      storeTurn();
      try {
        const entry = await this.deps.compactor.compact({
          chatId: chat.id,
          system: { messages: context.systemMessages, layers: context.systemLayers },
          tools,
          window,
          settings,
          chatModel: resolved.modelId,
          reason,
          force: reason === "overflow",
          turnId,
          step: atStep,
          signal,
        });
        if (!entry) return false;
        emit({ event: "compaction", data: compactionEvent(entry) });
        const rebuilt = firstRequest(context, this.deps.messages.listByChat(chat.id));
        sent.splice(0, sent.length, ...rebuilt.messages);
        meter?.relayer(rebuilt.layers);
        if (meter) emit({ event: "context", data: meter.measure(sent, tools) });
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        const message =
          error instanceof CompactionFailed
            ? error.message
            : `compaction failed, the chat is as it was: ${(error as Error).message}`;
        if (!(error instanceof CompactionFailed)) this.deps.log.warn(message);
        emit({ event: "notice", data: { code: "compaction_failed", message } });
        return false;
      }
    };
    let lastTools: readonly unknown[] = [];
    let step = 0;
    // Live prices for the cost estimate, loaded in the background: a turn never waits for them.
    this.deps.catalog.warm("text", resolved.connection);
    // Every hook that writes stores the user's turn first (see `start`); the first step's start writes nothing.
    let stepMessageId = turn.assistantId;
    let stepOpen = true;
    // `subagent` is offered when the project defines agents to hand work to; nothing to a model that
    // cannot use tools. Past the tool budget, MCP tools wait for `tool_search` to find them.
    const tools = this.budgeted(
      prepared.takesTools
        ? offeredTools(
            context.tools ?? [],
            prepared.snapshot.gates,
            context.mcpTools,
            prepared.snapshot.agents.agents.length > 0,
          )
        : [],
      settings,
      window,
    );
    // One memory of untrusted input for the turn and the subagents it hands work to (contract 7.5).
    const untrusted = new UntrustedInput();
    const result = await runAgentLoop({
      resolved,
      messages,
      tools: tools.offered,
      requestExtras: context.requestExtras,
      settings,
      retryBaseMs: this.deps.retryBaseMs ?? 500,
      signal,
      emit,
      toolContext: this.deps.tools.context({
        chatId: chat.id,
        snapshot: prepared.snapshot,
        root: prepared.root,
        turnId,
        signal,
        emit,
        tools: context.tools ?? [],
        untrusted,
        ...(tools.deferred.length > 0
          ? { toolSearch: (args) => runToolSearch(args, tools.deferred, tools.offered) }
          : {}),
        runSubagent: (args, callId, callSignal) =>
          this.deps.subagents.run({
            snapshot: prepared.snapshot,
            chat,
            root: prepared.root,
            agent: args.agent,
            task: args.task,
            callId,
            turnId,
            signal: callSignal,
            emit,
            untrusted,
          }),
      }),
      callIdPrefix: `call_${turnId}`,
      hooks: {
        beforeStep: (next) => {
          step = next;
          if (next === 0) return;
          storeTurn();
          stepMessageId = this.deps.messages.append(chat.id, {
            role: "assistant",
            content: "",
            status: "streaming",
            modelId: resolved.modelId,
          }).id;
          stepOpen = true;
        },
        // The turn's usage sum lives on its last assistant message, so chat totals count each turn once.
        stepDone: (outcome, total, last) => {
          // A turn that never got an answer is not billed, nor counted in the chat's totals.
          const unanswered = total.totalTokens === 0 && outcome.error !== undefined;
          storeTurn();
          this.deps.messages.update(stepMessageId, {
            content: outcome.text,
            status: messageStatusFor(outcome.finishReason, outcome.error !== undefined),
            usage: last && !unanswered ? total : null,
            meta: {
              turnId,
              finishReason: outcome.finishReason,
              ...(outcome.reasoning ? { reasoning: outcome.reasoning } : {}),
              ...(outcome.error ? { error: outcome.error } : {}),
              ...(outcome.notice ? { notice: outcome.notice } : {}),
              ...(outcome.toolCalls.length > 0 ? { toolCalls: outcome.toolCalls } : {}),
            },
          });
          stepOpen = false;
        },
        toolsRefused: () => void this.deps.tools.rememberNoTools(resolved.modelId),
        // Before each request: compact when its estimate passes the threshold (synchronous while it
        // fits, so a turn's first request is never held up); after an overflow answer, always.
        compact: (reason, sent, tools, atStep) => {
          if (reason === "overflow") return compact(reason, sent, tools, atStep);
          if (!autoCompaction) return false;
          if (!meter)
            return meterReady.then((ready) => !!ready && overBudget(ready) && compact(reason, sent, tools, atStep));
          return overBudget(meter) && compact(reason, sent, tools, atStep);
          function overBudget(ready: ContextMeter): boolean {
            return ready.measure(sent, tools).used > compactionBudget(compaction);
          }
        },
        // The meter before each request (after `turn.start` for the first), scaled once a step reported.
        beforeRequest: (sent, tools) => {
          lastTools = tools;
          void meterReady.then((ready) => ready && emit({ event: "context", data: ready.measure(sent, tools) }));
        },
        toolDone: (call, outcome, content) => {
          storeTurn();
          this.deps.messages.append(chat.id, {
            role: "tool",
            content,
            status: "complete",
            meta: {
              turnId,
              callId: call.id,
              name: call.name,
              ok: outcome.ok,
              arguments: outcome.arguments,
              ...(outcome.diff ? { diff: outcome.diff } : {}),
            },
          });
        },
        stopped: (stop, total) => {
          const error = {
            content: "",
            status: "error" as const,
            usage: total ?? null,
            meta: { turnId, finishReason: "error", error: { message: stop.message, retryable: false } },
          };
          storeTurn();
          if (stepOpen) this.deps.messages.update(stepMessageId, error);
          else this.deps.messages.append(chat.id, { role: "assistant", modelId: resolved.modelId, ...error });
        },
        usageOf: (outcome, sent) => {
          const usage = this.deps.tools.stepUsage(outcome, sent, this.deps.tools.pricing(prepared.snapshot, resolved));
          // The turn's rows exist before its first request is recorded: the ledger belongs to a stored turn.
          storeTurn();
          this.deps.requests?.record(
            chat.id,
            { turnId, step, cause: step === 0 ? "turn" : "tool_step", model: resolved.modelId },
            usage,
          );
          if (outcome.usage) void meterReady.then((ready) => ready?.reconcile(usage.promptTokens));
          return usage;
        },
      },
    });
    // Where the next turn starts from: this one's messages and its answer.
    if (result.text) messages.push({ role: "assistant", content: result.text });
    const finalMeter = await meterReady;
    if (finalMeter) emit({ event: "context", data: finalMeter.measure(messages, lastTools) });
    emit({ event: "turn.end", data: { turnId, finishReason: result.finishReason } });
  }
}
