// A chat's context meter: the server's count for the request the chat would send now, read when the
// chat opens and after each turn, and the stream's live `context` events while a turn runs.
import type { ContextReport } from "$shared/context";
import type { StreamEvent } from "$shared/stream-events";
import type { ApiClient } from "../api/client";

export class ContextMeterState {
  report = $state.raw<ContextReport | undefined>();
  /** Bumped by every live event, so a read that left before one cannot overwrite it with older figures. */
  private generation = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly chatId: string,
  ) {}

  async load(): Promise<void> {
    const asked = ++this.generation;
    try {
      const report = await this.api.call("GET /api/chats/:id/context", { params: { id: this.chatId } });
      if (asked === this.generation) this.report = report;
    } catch {
      // 400 without a model (nothing to measure yet), or the server is away: the meter keeps what it
      // showed, or shows nothing; the chat says what went wrong elsewhere.
    }
  }

  onEvent(event: StreamEvent): void {
    if (event.event !== "context") return;
    this.generation++;
    this.report = event.data;
  }
}
