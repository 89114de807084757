// One open chat: its transcript from the server, the turn being streamed, stop and retry.
import type { Chat, Message } from "../../../../src/shared/chats";
import type { Usage, UsageTotals } from "../../../../src/shared/usage";
import { ApiError, type ApiClient, type SseEvent } from "../api/client";

type ChatWithMessages = Chat & { messages: Message[]; usage: UsageTotals };
/** A project points a provider at a server its stored key was not saved for (contract, section 5). */
export type OriginMismatch = { providerId: string; requestOrigin: string; savedOrigins: string[] };
export type TurnError = { message: string; status?: number; retryable: boolean; originMismatch?: OriginMismatch };

function originMismatchOf(error: unknown): OriginMismatch | undefined {
  if (!(error instanceof ApiError) || error.code !== "credential_origin_mismatch") return undefined;
  const detail = error.issues?.[0] as Partial<OriginMismatch> | undefined;
  return typeof detail?.providerId === "string" && typeof detail.requestOrigin === "string"
    ? { providerId: detail.providerId, requestOrigin: detail.requestOrigin, savedOrigins: Array.isArray(detail.savedOrigins) ? detail.savedOrigins : [] }
    : undefined;
}

export class ChatSession {
  chat = $state.raw<ChatWithMessages | undefined>();
  loadError = $state<string | undefined>();
  /** The turn being streamed, shown until the stored messages replace it. */
  pendingUser = $state<string | undefined>();
  streamingText = $state("");
  reasoning = $state("");
  streaming = $state(false);
  turnUsage = $state.raw<Usage | undefined>();
  error = $state.raw<TurnError | undefined>();
  private controller: AbortController | undefined;
  private lastSent: { content: string; modelId?: string; referencedPaths?: string[] } | undefined;

  constructor(
    private readonly api: ApiClient,
    readonly chatId: string,
  ) {}

  async load(): Promise<void> {
    try {
      this.chat = await this.api.get<ChatWithMessages>(`/api/chats/${this.chatId}`);
      this.loadError = undefined;
      // A turn that was still streaming when this UI (re)loaded: follow it to its end.
      const last = this.chat.messages.at(-1);
      if (last?.role === "assistant" && last.status === "streaming" && !this.streaming) void this.follow();
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  async send(content: string, modelId?: string, referencedPaths?: string[]): Promise<void> {
    if (this.streaming || !content.trim()) return;
    // The model goes with it: a send refused before the turn began never saved it on the chat.
    this.lastSent = { content, modelId, referencedPaths };
    await this.run("POST", `/api/chats/${this.chatId}/messages/stream`, { content, ...(modelId ? { modelId } : {}), ...(referencedPaths?.length ? { referencedPaths } : {}) }, content);
  }

  async retry(): Promise<void> {
    if (this.lastSent) await this.send(this.lastSent.content, this.lastSent.modelId, this.lastSent.referencedPaths);
  }

  async stop(): Promise<void> {
    await this.api.post(`/api/chats/${this.chatId}/cancel`).catch(() => {});
  }

  dispose(): void {
    this.controller?.abort();
  }

  private async follow(): Promise<void> {
    await this.run("GET", `/api/chats/${this.chatId}/stream`, undefined, undefined);
  }

  private async run(method: "GET" | "POST", path: string, body: unknown, userText: string | undefined): Promise<void> {
    this.controller = new AbortController();
    this.streaming = true;
    this.pendingUser = userText;
    this.streamingText = "";
    this.reasoning = "";
    this.turnUsage = undefined;
    this.error = undefined;
    try {
      await this.api.stream(method, path, body, (event) => this.onEvent(event), this.controller.signal);
    } catch (error) {
      if (!this.controller.signal.aborted) {
        const originMismatch = originMismatchOf(error);
        this.error = { message: (error as Error).message, retryable: originMismatch !== undefined, ...(originMismatch ? { originMismatch } : {}) };
      }
    } finally {
      this.streaming = false;
      await this.load();
      this.pendingUser = undefined;
      this.streamingText = "";
      this.reasoning = "";
    }
  }

  private onEvent(event: SseEvent): void {
    const data = event.data as Record<string, any>;
    if (event.event === "text.delta") this.streamingText += data.text;
    else if (event.event === "reasoning.delta") this.reasoning += data.text;
    else if (event.event === "usage") this.turnUsage = data as Usage;
    else if (event.event === "error") this.error = { message: data.message, status: data.status, retryable: data.retryable };
  }
}
