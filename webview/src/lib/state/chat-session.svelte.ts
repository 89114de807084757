// One open chat: its transcript from the server, the turn being streamed, stop and retry.
import { z } from "zod";
import type { ChatWithMessages } from "../../../../src/shared/api-routes";
import type { AppEvent } from "../../../../src/shared/app-events";
import type { StreamEvent } from "../../../../src/shared/stream-events";
import type { Usage } from "../../../../src/shared/usage";
import { ApiError, type ApiClient } from "../api/client";

/** A project points a provider at a server its stored key was not saved for (contract, section 5). */
const originMismatchSchema = z.object({ providerId: z.string(), requestOrigin: z.string(), savedOrigins: z.array(z.string()).catch([]) });
export type OriginMismatch = z.infer<typeof originMismatchSchema>;
export type TurnError = { message: string; status?: number; retryable: boolean; originMismatch?: OriginMismatch };

function originMismatchOf(error: unknown): OriginMismatch | undefined {
  if (!(error instanceof ApiError) || error.code !== "credential_origin_mismatch") return undefined;
  const detail = originMismatchSchema.safeParse(error.issues?.[0]);
  return detail.success ? detail.data : undefined;
}

type Sent = { content: string; modelId?: string; referencedPaths?: string[] };

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
  private lastSent: Sent | undefined;

  constructor(
    private readonly api: ApiClient,
    readonly chatId: string,
  ) {}

  async load(): Promise<void> {
    try {
      this.chat = await this.api.call("GET /api/chats/:id", { params: { id: this.chatId } });
      this.loadError = undefined;
      // A turn that was still streaming when this UI (re)loaded: follow it to its end.
      const last = this.chat.messages.at(-1);
      if (last?.role === "assistant" && last.status === "streaming" && !this.streaming) void this.follow();
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  /** Another UI changed this chat (title, model, a turn it ran): show the server's view. */
  onAppEvent(event: AppEvent): void {
    if (event.type !== "chats.changed" || this.streaming) return;
    // No chatId: something changed in the project's chats at large, which may include this one.
    const mine = event.data.chatId === undefined ? event.data.projectId === this.chat?.projectId : event.data.chatId === this.chatId;
    if (mine) void this.load();
  }

  async send(content: string, modelId?: string, referencedPaths?: string[]): Promise<void> {
    if (this.streaming || !content.trim()) return;
    // The model goes with it: a send refused before the turn began never saved it on the chat.
    this.lastSent = { content, modelId, referencedPaths };
    const body = { content, ...(modelId ? { modelId } : {}), ...(referencedPaths?.length ? { referencedPaths } : {}) };
    await this.run("POST /api/chats/:id/messages/stream", body, content);
  }

  async retry(): Promise<void> {
    if (this.lastSent) await this.send(this.lastSent.content, this.lastSent.modelId, this.lastSent.referencedPaths);
  }

  async stop(): Promise<void> {
    await this.api.call("POST /api/chats/:id/cancel", { params: { id: this.chatId } }).catch(() => {});
  }

  dispose(): void {
    this.controller?.abort();
  }

  private async follow(): Promise<void> {
    await this.run("GET /api/chats/:id/stream", undefined, undefined);
  }

  private async run(key: "POST /api/chats/:id/messages/stream" | "GET /api/chats/:id/stream", body: Sent | undefined, userText: string | undefined): Promise<void> {
    this.controller = new AbortController();
    this.streaming = true;
    this.pendingUser = userText;
    this.streamingText = "";
    this.reasoning = "";
    this.turnUsage = undefined;
    this.error = undefined;
    try {
      await this.api.chatStream(key, { params: { id: this.chatId }, body }, (event) => this.onEvent(event), this.controller.signal);
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

  private onEvent(event: StreamEvent): void {
    if (event.event === "text.delta") this.streamingText += event.data.text;
    else if (event.event === "reasoning.delta") this.reasoning += event.data.text;
    else if (event.event === "usage") this.turnUsage = event.data;
    else if (event.event === "error") this.error = { message: event.data.message, status: event.data.status, retryable: event.data.retryable };
  }
}
