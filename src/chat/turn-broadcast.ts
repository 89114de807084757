// The events of one chat turn, numbered per chat, kept while the turn runs and briefly after, so
// a second UI (or one that reconnects with Last-Event-ID) can replay and follow the same turn.
import type { StreamEvent } from "../shared/stream-events";

export type NumberedEvent = StreamEvent & { id: number };
export type TurnListener = (event: NumberedEvent) => void;

export class TurnBroadcast {
  private readonly events: NumberedEvent[] = [];
  private readonly listeners = new Set<TurnListener>();
  private finished = false;

  constructor(
    readonly chatId: string,
    private nextId: number,
  ) {}

  get done(): boolean {
    return this.finished;
  }

  get lastId(): number {
    return this.nextId - 1;
  }

  emit(event: StreamEvent): NumberedEvent {
    const numbered = { ...event, id: this.nextId++ } as NumberedEvent;
    this.events.push(numbered);
    // Done before turn.end reaches a listener: a stream that closes on it must not take the finished
    // turn for a live one and cancel it (which aborted the turn's signal at the end of every turn).
    if (event.event === "turn.end") this.finished = true;
    for (const listener of this.listeners) listener(numbered);
    if (this.finished) this.listeners.clear();
    return numbered;
  }

  /** Replays events after `afterId`, then follows live ones until turn.end. Returns an unsubscribe. */
  follow(afterId: number, listener: TurnListener): () => void {
    for (const event of this.events) if (event.id > afterId) listener(event);
    if (this.finished) return () => {};
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Live turns by chat (one at a time per chat) and the last finished one for a short replay window. */
export class ActiveTurns {
  private readonly live = new Map<string, { broadcast: TurnBroadcast; controller: AbortController }>();
  private readonly recent = new Map<string, TurnBroadcast>();
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly keepFinishedMs = 5 * 60 * 1000) {}

  isActive(chatId: string): boolean {
    return this.live.has(chatId);
  }

  start(chatId: string, firstId: number): { broadcast: TurnBroadcast; controller: AbortController } {
    const turn = { broadcast: new TurnBroadcast(chatId, firstId), controller: new AbortController() };
    this.live.set(chatId, turn);
    return turn;
  }

  finish(chatId: string): void {
    const turn = this.live.get(chatId);
    if (!turn) return;
    this.live.delete(chatId);
    if (this.live.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    this.recent.set(chatId, turn.broadcast);
    setTimeout(() => {
      if (this.recent.get(chatId) === turn.broadcast) this.recent.delete(chatId);
    }, this.keepFinishedMs).unref();
  }

  /** Aborts the chat's live turn, if any. */
  cancel(chatId: string): boolean {
    const turn = this.live.get(chatId);
    turn?.controller.abort();
    return turn !== undefined;
  }

  cancelAll(): void {
    for (const turn of this.live.values()) turn.controller.abort();
  }

  /** Resolves once no turn is live (each has stored its answer), or after `maxMs`. */
  whenIdle(maxMs: number): Promise<void> {
    if (this.live.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  latest(chatId: string): TurnBroadcast | undefined {
    return this.live.get(chatId)?.broadcast ?? this.recent.get(chatId);
  }
}
