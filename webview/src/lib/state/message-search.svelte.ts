// The search box's look into the messages of the project's chats (GET /api/search): asked a moment
// after the typing stops, each newer query cancelling the one before, so the hits shown always
// answer the words in the box.
import type { SearchHit } from "$shared/search";
import type { ApiClient } from "../api/client";

/** Typing pauses longer than this between words: one request per pause, not per key. */
const DEBOUNCE_MS = 150;
const LIMIT = 20;

export class MessageSearch {
  hits = $state.raw<SearchHit[]>([]);
  /** The query `hits` answer; "" before the first answer and after the box is cleared. */
  answered = $state("");
  searching = $state(false);
  error = $state<string | undefined>();
  private query = "";
  private timer: ReturnType<typeof setTimeout> | undefined;
  private request: AbortController | undefined;

  constructor(
    private readonly api: ApiClient,
    /** The project whose chats are searched. */
    private readonly projectDir: () => string | undefined,
  ) {}

  /** Searches for `query` shortly (at once for an empty one, which clears the hits). */
  set(query: string): void {
    const wanted = query.trim();
    if (wanted === this.query) return;
    this.query = wanted;
    clearTimeout(this.timer);
    this.request?.abort();
    if (!wanted) {
      this.hits = [];
      this.answered = "";
      this.searching = false;
      this.error = undefined;
      return;
    }
    this.searching = true;
    this.timer = setTimeout(() => void this.run(wanted), DEBOUNCE_MS);
  }

  private async run(query: string): Promise<void> {
    const request = (this.request = new AbortController());
    try {
      const hits = await this.api.call(
        "GET /api/search",
        { query: { q: query, projectDir: this.projectDir(), limit: String(LIMIT) } },
        { signal: request.signal },
      );
      if (request.signal.aborted) return;
      this.hits = hits;
      this.answered = query;
      this.error = undefined;
    } catch (error) {
      if (request.signal.aborted) return;
      this.hits = [];
      this.answered = query;
      this.error = (error as Error).message;
    } finally {
      if (!request.signal.aborted) this.searching = false;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.request?.abort();
  }
}
