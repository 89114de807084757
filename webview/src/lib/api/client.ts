// Typed HTTP + SSE client of the Parley server; the only way the UI talks to anything.
import { createParser } from "eventsource-parser";
import type { Bootstrap } from "../bootstrap";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues?: unknown[],
  ) {
    super(message);
  }
}

export type SseEvent = { id?: string; event: string; data: unknown };

export class ApiClient {
  constructor(private readonly boot: Bootstrap) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.boot.token ? { authorization: `Bearer ${this.boot.token}` } : {}), ...extra };
  }

  url(path: string): string {
    return `${this.boot.serverUrl}${path}`;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(this.url(path), {
      method,
      credentials: "include",
      headers: this.headers(body === undefined ? {} : { "content-type": "application/json" }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!response.ok) {
      const error = parsed?.error ?? {};
      throw new ApiError(response.status, error.code ?? "internal", error.message ?? `request failed (${response.status})`, error.issues);
    }
    return parsed as T;
  }

  get = <T>(path: string) => this.request<T>("GET", path);
  post = <T>(path: string, body?: unknown) => this.request<T>("POST", path, body ?? {});
  patch = <T>(path: string, body: unknown) => this.request<T>("PATCH", path, body);
  put = <T>(path: string, body: unknown) => this.request<T>("PUT", path, body);
  delete = (path: string) => this.request<void>("DELETE", path);

  /**
   * Reads a server-sent event stream (POST or GET) with fetch, so a Bearer token can be sent;
   * resolves when the stream ends. Non-stream answers (400, 409…) reject with ApiError.
   */
  async stream(method: "GET" | "POST", path: string, body: unknown, onEvent: (event: SseEvent) => void, signal?: AbortSignal, lastEventId?: string): Promise<void> {
    const response = await fetch(this.url(path), {
      method,
      credentials: "include",
      signal,
      headers: this.headers({
        accept: "text/event-stream",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(lastEventId ? { "last-event-id": lastEventId } : {}),
      }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 204) return;
    if (!response.ok || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      const parsed = await response.json().catch(() => ({}));
      throw new ApiError(response.status, parsed?.error?.code ?? "internal", parsed?.error?.message ?? `request failed (${response.status})`, parsed?.error?.issues);
    }
    const parser = createParser({
      onEvent: (e) => {
        try {
          onEvent({ id: e.id, event: e.event ?? "message", data: JSON.parse(e.data) });
        } catch {
          // an event that is not JSON carries nothing the UI can show
        }
      },
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  }

  /** App-wide change events, reconnecting with backoff until `signal` aborts. */
  subscribe(onEvent: (event: SseEvent) => void, signal: AbortSignal): void {
    let delay = 1000;
    const connect = async () => {
      while (!signal.aborted) {
        try {
          await this.stream("GET", "/api/events", undefined, (event) => {
            delay = 1000;
            onEvent(event);
          }, signal);
        } catch {
          // server restarting or network hiccup: try again shortly
        }
        if (signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 15_000);
      }
    };
    void connect();
  }
}
