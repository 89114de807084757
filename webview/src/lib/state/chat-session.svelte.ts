// One open chat: its transcript from the server, the composer's draft, the turn being streamed (text
// and tool cards), direct runs of agents, tools and actions, approvals and answers for its waiting
// tool calls, stop and retry.
import { MAX_PAGE, PAGE, withOlderKept } from "../message-pages";
import { z } from "zod";
import type { ChatWithMessages } from "$shared/api-routes";
import type { AppEvent } from "$shared/app-events";
import type { StreamEvent } from "$shared/stream-events";
import type { Message } from "$shared/chats";
import type { Usage } from "$shared/usage";
import { ApiError, type ApiClient } from "../api/client";
import { directFailure, followNewTurn, newCallId, type DirectFailure, type DirectRoute } from "../direct-runs";
import { lastFailure } from "../failed-turns";
import { answered, answerFailed, callsAwaitResults, emptyTurn, reduceTurn, type LiveTurn } from "../live-turn";
import { ChatCompactions } from "./compactions.svelte";
import { ContextMeterState } from "./context-meter.svelte";

/** A project points a provider at a server its stored key was not saved for (contract, section 5). */
const originMismatchSchema = z.object({
  providerId: z.string(),
  requestOrigin: z.string(),
  savedOrigins: z.array(z.string()).catch([]),
});
export type OriginMismatch = z.infer<typeof originMismatchSchema>;
export type TurnError = { message: string; status?: number; retryable: boolean; originMismatch?: OriginMismatch };

function originMismatchOf(error: unknown): OriginMismatch | undefined {
  if (!(error instanceof ApiError) || error.code !== "credential_origin_mismatch") return undefined;
  const detail = originMismatchSchema.safeParse(error.issues?.[0]);
  return detail.success ? detail.data : undefined;
}

/** An MCP resource attached to a message; `name` is what its chip shows (the server gets serverId and uri). */
export type AttachedResource = { serverId: string; uri: string; name: string };
/** Files and MCP resources picked with @ that go with a message. */
export type References = { paths?: string[]; resources?: AttachedResource[] };
type Sent = {
  content: string;
  modelId?: string;
  referencedPaths?: string[];
  referencedResources?: AttachedResource[];
  /** An edit: the message it goes beside (contract 7.4). */
  parentId?: string;
  /** A retry of this answer: a new one beside it, from the same message (no content is sent). */
  regenerate?: string;
};

/** What the stream route takes for a message (the resources without their names). */
function streamBody(sent: Sent) {
  const { content, modelId, referencedPaths, referencedResources, parentId, regenerate } = sent;
  if (regenerate) return { regenerate, ...(modelId ? { modelId } : {}) };
  return {
    content,
    ...(parentId ? { parentId } : {}),
    ...(modelId ? { modelId } : {}),
    ...(referencedPaths?.length ? { referencedPaths } : {}),
    ...(referencedResources?.length
      ? { referencedResources: referencedResources.map(({ serverId, uri }) => ({ serverId, uri })) }
      : {}),
  };
}

function turnErrorOf(error: unknown): TurnError {
  const originMismatch = originMismatchOf(error);
  const status = error instanceof ApiError ? error.status : undefined;
  return {
    message: (error as Error).message,
    ...(status ? { status } : {}),
    retryable: originMismatch !== undefined,
    ...(originMismatch ? { originMismatch } : {}),
  };
}

/** The user's own text of a turn (not a file or resource it referenced). */
const isTurnText = (m: Message) => m.role === "user" && !m.meta?.kind;

export class ChatSession {
  chat = $state.raw<ChatWithMessages | undefined>();
  loadError = $state<string | undefined>();
  /** A message the server refused before storing anything (no key, no model, busy): shown unsent. */
  refused = $state.raw<{ sent: Sent; error: TurnError } | undefined>();
  /** The turn being streamed, shown until the stored messages replace it. */
  pendingUser = $state<string | undefined>();
  /** The files and MCP resources that message references (picked with @), shown as chips under it. */
  pendingFiles = $state.raw<string[]>([]);
  /** The streamed turn's text, tool cards, tasks and status line. */
  live = $state.raw<LiveTurn>(emptyTurn());
  streaming = $state(false);
  /** An older page is being read. */
  loadingOlder = $state(false);
  turnUsage = $state.raw<Usage | undefined>();
  error = $state.raw<TurnError | undefined>();
  /** The composer's text: it goes back there when a direct run is refused. */
  draft = $state("");
  /** A direct run the server refused, with its way out. */
  directError = $state.raw<DirectFailure | undefined>();
  /** How full the model's context is (the "Context" meter). */
  readonly context: ContextMeterState;
  /** "Compact now", and the edit and undo of its compaction cards. */
  readonly compactions: ChatCompactions;
  private controller: AbortController | undefined;
  /** The last message a transcript with unanswered calls was followed from (see apply). */
  private followedFor: string | undefined;
  private stopped = false;
  private lastSent: Sent | undefined;

  constructor(
    private readonly api: ApiClient,
    readonly chatId: string,
    /** A project's folder by its id (waiting for the project list if need be), for the direct-run routes. */
    private readonly projectDirOf: (projectId: string) => Promise<string | undefined> = async () => undefined,
  ) {
    this.context = new ContextMeterState(api, chatId);
    this.compactions = new ChatCompactions(api, chatId, () => this.load());
  }

  async load(): Promise<void> {
    this.apply(await this.read());
  }

  /**
   * The chat's last messages, a page at a time (issue 36: a 10,000-message chat is never read whole).
   * A reload reads as many as are shown (up to a page of 500) and keeps the older ones already loaded.
   */
  private async read(): Promise<{ chat: ChatWithMessages } | { error: string }> {
    const shown = this.chat?.messages.length ?? 0;
    const limit = Math.min(MAX_PAGE, Math.max(PAGE, shown));
    try {
      const page = await this.api.call("GET /api/chats/:id", {
        params: { id: this.chatId },
        query: { limit: String(limit) },
      });
      return { chat: withOlderKept(this.chat, page) };
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  /** Whether the server holds older messages than those loaded. */
  get hasOlder(): boolean {
    return this.chat?.hasMore === true;
  }

  /** Reads every older page (find in chat was asked to search them), MAX_PAGE messages a request. */
  async loadAllOlder(): Promise<void> {
    while (this.chat?.hasMore && !this.loadError) {
      const before = this.chat.messages.length;
      await this.loadOlder(MAX_PAGE);
      if (this.chat.messages.length === before) return;
    }
  }

  /** Loads the page before the first loaded message (the reader scrolled up to it). */
  async loadOlder(limit = PAGE): Promise<void> {
    const chat = this.chat;
    const first = chat?.messages[0];
    if (!chat?.hasMore || !first || this.loadingOlder) return;
    this.loadingOlder = true;
    try {
      const page = await this.api.call("GET /api/chats/:id", {
        params: { id: this.chatId },
        query: { limit: String(limit), before: first.id },
      });
      // Only if nothing replaced the chat meanwhile.
      if (this.chat?.messages[0]?.id === first.id)
        this.chat = { ...this.chat, messages: [...page.messages, ...this.chat.messages], hasMore: page.hasMore };
    } catch (error) {
      this.loadError = (error as Error).message;
    } finally {
      this.loadingOlder = false;
    }
  }

  private apply(read: { chat: ChatWithMessages } | { error: string }): void {
    if ("error" in read) {
      this.loadError = read.error;
      return;
    }
    this.chat = read.chat;
    this.loadError = undefined;
    // The chat opened, changed or ended a turn: what it would send now.
    if (!this.streaming) void this.context.load();
    // A turn that was still streaming when this UI (re)loaded: follow it to its end.
    const last = read.chat.messages.at(-1);
    if (last?.role === "assistant" && last.status === "streaming" && !this.streaming) void this.follow();
    // A step whose calls have no results yet: one runs or waits for the user (an approval must stay
    // answerable after a reload). Once per last message: a turn that was cut off has nothing to follow.
    else if (!this.streaming && last && last.id !== this.followedFor && callsAwaitResults(read.chat.messages)) {
      this.followedFor = last.id;
      void this.follow();
    }
  }

  /** Another UI changed this chat (title, model, a turn it ran): show the server's view. */
  onAppEvent(event: AppEvent): void {
    if (event.type !== "chats.changed" || this.streaming) return;
    // No chatId: something changed in the project's chats at large, which may include this one.
    const mine =
      event.data.chatId === undefined
        ? event.data.projectId === this.chat?.projectId
        : event.data.chatId === this.chatId;
    if (mine) void this.load();
  }

  /**
   * Enter in the composer: a text starting with "@" asks the server what it is first (an agent, a
   * tool, an action) and runs that directly; anything else, or a text the route leaves to the model,
   * is a message to the model, with the files and MCP resources picked with @ (`referencedPaths`,
   * `referencedResources`).
   */
  async submit(modelId?: string, references: References = {}): Promise<void> {
    const text = this.draft.trim();
    // No wait for the chat to load: a message needs nothing of it, and a run's project is known anyway.
    if (this.streaming || !text) return;
    this.draft = "";
    this.directError = undefined;
    if (!text.startsWith("@")) return this.send(text, modelId, references);
    let route: DirectRoute | undefined;
    try {
      const projectDir = (await this.projectDirOf(this.chat?.projectId ?? "")) ?? "";
      const routed = await this.api.call("POST /api/composer/route", { body: { projectDir, text } });
      if (routed.kind === "message") return this.send(text, modelId, references);
      route = routed;
      await this.runDirect(route, projectDir);
    } catch (error) {
      // A run the user stopped is no failure to explain.
      if (this.stopped) return;
      this.directError = directFailure(text, route, error);
      if (!this.draft) this.draft = text;
    }
  }

  /** Runs a refused text again (the chat is free now, the gate changed…). */
  async retryDirect(failure: DirectFailure, modelId?: string): Promise<void> {
    this.draft = failure.text;
    await this.submit(modelId);
  }

  /** The way out of a refused run: its text to the model, as a message. */
  async sendToModel(failure: DirectFailure, modelId?: string): Promise<void> {
    this.directError = undefined;
    if (this.draft.trim() === failure.text) this.draft = "";
    await this.send(failure.text, modelId);
  }

  /** Runs the route's request as a turn of its own, following the chat's stream meanwhile so its cards show live. */
  private async runDirect(route: DirectRoute, projectDir: string): Promise<void> {
    const chatId = this.chatId;
    const request = (): Promise<unknown> => {
      if (route.kind === "agent")
        return this.api.call("POST /api/tools/subagent", {
          body: { projectDir, chatId, agent: route.agent, task: route.task },
        });
      if (route.kind === "tool")
        return this.api.call("POST /api/tools/dispatch", {
          body: { projectDir, chatId, tool: route.tool, arguments: route.arguments, callId: newCallId() },
        });
      return this.api.call("POST /api/actions/:id/run", { params: { id: route.action }, body: { projectDir, chatId } });
    };
    const messages = this.chat?.messages ?? [];
    const known = {
      turnIds: new Set(messages.flatMap((m) => (m.meta?.turnId ? [m.meta.turnId] : []))),
      messageIds: new Set(messages.map((m) => m.id)),
    };
    this.controller = new AbortController();
    const signal = this.controller.signal;
    this.streaming = true;
    this.live = emptyTurn();
    this.turnUsage = undefined;
    this.error = undefined;
    this.stopped = false;
    let settled = false;
    const running = request().finally(() => (settled = true));
    // A refused run never starts a turn: stop polling the stream at once.
    const follower = new AbortController();
    signal.addEventListener("abort", () => follower.abort());
    running.catch(() => follower.abort());
    try {
      await Promise.all([
        running,
        followNewTurn(
          this.api,
          chatId,
          known,
          (event) => this.onEvent(event),
          () => settled,
          follower.signal,
        ),
      ]);
    } finally {
      const read = await this.read();
      this.streaming = false;
      this.live = emptyTurn();
      this.apply(read);
    }
  }

  async send(content: string, modelId?: string, references: References = {}): Promise<void> {
    if (this.streaming || !content.trim()) return;
    // The model goes with it: a send refused before the turn began never saved it on the chat.
    const sent: Sent = {
      content,
      ...(modelId ? { modelId } : {}),
      ...(references.paths?.length ? { referencedPaths: references.paths } : {}),
      ...(references.resources?.length ? { referencedResources: references.resources } : {}),
    };
    this.lastSent = sent;
    await this.run("POST /api/chats/:id/messages/stream", sent, content);
  }

  /**
   * Edit and resend (contract 7.4): the new text goes beside the edited message, with the files it
   * referenced; the turns after it leave the view at once (they stay on their branch, a version away).
   */
  async edit(message: Message, content: string, modelId?: string): Promise<void> {
    if (this.streaming || !content.trim()) return;
    this.showUntil(message.id, false);
    const paths = message.meta?.referencedPaths;
    const sent: Sent = {
      content,
      parentId: message.id,
      ...(modelId ? { modelId } : {}),
      ...(paths?.length ? { referencedPaths: paths } : {}),
    };
    await this.run("POST /api/chats/:id/messages/stream", sent, content);
  }

  /** Retry: a new answer beside `answerId`, from the same user message (the old one stays a version). */
  async regenerate(answerId: string, modelId?: string): Promise<void> {
    const messages = this.chat?.messages ?? [];
    const asked = messages
      .slice(
        0,
        messages.findIndex((m) => m.id === answerId),
      )
      .reverse()
      .find(isTurnText);
    if (this.streaming || !asked) return;
    this.showUntil(asked.id, true);
    await this.run("POST /api/chats/:id/messages/stream", { content: "", regenerate: answerId, modelId }, undefined);
  }

  /** Shows another version of a message ("‹ 2/3 ›"): the branch through it, to its newest message. */
  async showVersion(id: string): Promise<void> {
    if (this.streaming) return;
    try {
      await this.api.call("PATCH /api/chats/:id", { params: { id: this.chatId }, body: { leafId: id } });
    } catch (error) {
      this.loadError = (error as Error).message;
    }
    await this.load();
  }

  /**
   * Makes a linked message (a search hit) part of what is loaded: the older pages up to it, or its
   * branch when the chat shows another; whether it is there now.
   */
  async reveal(messageId: string): Promise<boolean> {
    const has = () => this.chat?.messages.some((m) => m.id === messageId) ?? false;
    if (!has()) await this.loadAllOlder();
    if (!has() && !this.streaming) {
      await this.showVersion(messageId);
      if (!has()) await this.loadAllOlder();
    }
    return has();
  }

  /** "Fork from here": a new chat holding the conversation up to this message; its id. */
  async fork(messageId: string): Promise<string> {
    const forked = await this.api.call("POST /api/chats/:id/fork", {
      params: { id: this.chatId },
      body: { messageId },
    });
    return forked.id;
  }

  /**
   * Reverts the file changes of these turns, newest first, before an edit; the first refusal (files
   * changed since) stops there, and is what the edit form says.
   */
  async revertTurns(turnIds: readonly string[]): Promise<string | undefined> {
    for (const turn of [...turnIds].reverse()) {
      try {
        await this.api.call("POST /api/chats/:id/turns/:turn/revert", { params: { id: this.chatId, turn }, body: {} });
      } catch (error) {
        return `Nothing was sent: ${(error as Error).message}`;
      }
    }
    return undefined;
  }

  /** The view keeps the messages before `id` (and it, with `inclusive`), and the file rows it referenced too. */
  private showUntil(id: string, inclusive: boolean): void {
    const chat = this.chat;
    if (!chat) return;
    let end = chat.messages.findIndex((m) => m.id === id);
    if (end < 0) return;
    if (inclusive) end++;
    else while (end > 0 && chat.messages[end - 1]!.role === "user" && chat.messages[end - 1]!.meta?.kind) end--;
    this.chat = { ...chat, messages: chat.messages.slice(0, end) };
  }

  /** Which agent this chat runs as; null goes back to the project's default. */
  /** The chat's own prompt (the header's chip); null clears it. */
  async setPrompt(promptId: string | null): Promise<void> {
    const changed = await this.api.call("PATCH /api/chats/:id", { params: { id: this.chatId }, body: { promptId } });
    if (this.chat) this.chat = { ...this.chat, ...changed };
  }

  async setAgent(agent: string | null): Promise<void> {
    const changed = await this.api.call("PATCH /api/chats/:id", { params: { id: this.chatId }, body: { agent } });
    if (this.chat) this.chat = { ...this.chat, ...changed };
  }

  /**
   * Sends the failed message again, with the model picked now: a refused one, else the transcript's
   * failed last turn (its earlier attempt is then left out of the view), else the last one sent.
   */
  async retry(modelId?: string): Promise<void> {
    const again = this.refused?.sent ?? (this.chat ? lastFailure(this.chat.messages) : undefined) ?? this.lastSent;
    if (!again || this.streaming) return;
    if (this.draft.trim() === again.content) this.draft = "";
    await this.send(again.content, modelId, {
      paths: again.referencedPaths,
      resources: again.referencedResources,
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.api.call("POST /api/chats/:id/cancel", { params: { id: this.chatId } }).catch(() => {});
  }

  /** Allows or denies a call waiting for approval; `remember` makes Allow the project's gate for the tool. */
  async approve(callId: string, decision: "allow" | "deny", remember = false): Promise<void> {
    await this.reply(callId, () =>
      this.api.call("POST /api/chats/:id/approvals/:call", {
        params: { id: this.chatId, call: callId },
        body: { decision, ...(remember ? { remember } : {}) },
      }),
    );
  }

  /**
   * "Trust and allow" (contract 7.1): `trust` trusts the call's project, then the call is allowed and
   * the tool allowed for good. Either failing shows on the card, and the call keeps waiting.
   */
  async trustAndAllow(callId: string, trust: () => Promise<void>): Promise<void> {
    await this.reply(callId, async () => {
      await trust();
      await this.api.call("POST /api/chats/:id/approvals/:call", {
        params: { id: this.chatId, call: callId },
        body: { decision: "allow", remember: true },
      });
    });
  }

  /** Answers an ask_user question. */
  async answer(callId: string, answer: string): Promise<void> {
    await this.reply(callId, () =>
      this.api.call("POST /api/chats/:id/answers/:call", {
        params: { id: this.chatId, call: callId },
        body: { answer },
      }),
    );
  }

  private async reply(callId: string, request: () => Promise<unknown>): Promise<void> {
    try {
      await request();
      this.live = answered(this.live, callId);
    } catch (error) {
      this.live = answerFailed(this.live, callId, (error as Error).message);
    }
  }

  dispose(): void {
    this.controller?.abort();
  }

  private async follow(): Promise<void> {
    await this.run("GET /api/chats/:id/stream", undefined, undefined);
  }

  private async run(
    key: "POST /api/chats/:id/messages/stream" | "GET /api/chats/:id/stream",
    sent: Sent | undefined,
    userText: string | undefined,
  ): Promise<void> {
    this.controller = new AbortController();
    this.streaming = true;
    this.compactions.settle();
    this.pendingUser = userText;
    this.pendingFiles = [...(sent?.referencedPaths ?? []), ...(sent?.referencedResources ?? []).map((r) => r.name)];
    this.live = emptyTurn();
    this.turnUsage = undefined;
    this.error = undefined;
    this.refused = undefined;
    let started = false;
    const onEvent = (event: StreamEvent) => {
      if (event.event === "turn.start") started = true;
      this.onEvent(event);
    };
    try {
      await this.api.chatStream(
        key,
        { params: { id: this.chatId }, body: sent && streamBody(sent) },
        onEvent,
        this.controller.signal,
      );
    } catch (error) {
      if (!this.controller.signal.aborted) {
        // Refused before the turn began: nothing was stored, so the message stays, unsent, and the
        // composer keeps its text.
        if (sent && !started) {
          this.refused = { sent, error: turnErrorOf(error) };
          if (!this.draft.trim()) this.draft = sent.content;
        } else this.error = turnErrorOf(error);
      }
    } finally {
      // The stored turn replaces the live one in a single change, so nothing flickers or shows twice.
      const read = await this.read();
      this.streaming = false;
      this.pendingUser = undefined;
      this.pendingFiles = [];
      this.live = emptyTurn();
      this.apply(read);
      // The stored turn shows its error in place; no second copy of it above the composer.
      if (this.error && this.chat && lastFailure(this.chat.messages)) this.error = undefined;
    }
  }

  private onEvent(event: StreamEvent): void {
    this.live = reduceTurn(this.live, event);
    this.context.onEvent(event);
    if (event.event === "usage") this.turnUsage = event.data;
    else if (event.event === "error")
      this.error = { message: event.data.message, status: event.data.status, retryable: event.data.retryable };
  }
}
