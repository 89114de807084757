// Typed HTTP + SSE client of the Parley server; the only way the UI talks to anything. Paths, bodies
// and results come from the route table in src/shared/api-routes.ts, so they cannot drift.
import type { z } from "zod";
import type {
  apiRoutes,
  ApiRouteKey,
  DownloadRouteKey,
  downloadRoutes,
  PathOf,
  PathParams,
  StreamRouteKey,
  streamRoutes,
  uploadRoutes,
  UploadRouteKey,
} from "$shared/api-routes";
import type { ApiErrorBody } from "$shared/api-error";
import type { AppEvent } from "$shared/app-events";
import type { StreamEvent } from "$shared/stream-events";
import type { Bootstrap } from "../bootstrap";
import { readAppEvent, readStreamEvent, readSse } from "./sse";
import { attachmentName } from "../download";

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

type ParamsInput<K extends string> =
  PathParams<PathOf<K>> extends infer P ? (unknown extends P ? { params?: never } : { params: P }) : never;
type Spec<K extends ApiRouteKey> = (typeof apiRoutes)[K];
/** A query whose every field is optional may be left out (a paged read without paging). */
type QueryInput<K extends ApiRouteKey> =
  Spec<K> extends { query: z.ZodType }
    ? {} extends z.input<Spec<K>["query"]>
      ? { query?: z.input<Spec<K>["query"]> }
      : { query: z.input<Spec<K>["query"]> }
    : { query?: never };
type BodyInput<K extends ApiRouteKey> =
  Spec<K> extends { body: z.ZodType } ? { body: z.input<Spec<K>["body"]> } : { body?: never };

/** What a chat's streaming turn takes: the stream route's declared body. */
export type ChatStreamBody = z.input<(typeof streamRoutes)["POST /api/chats/:id/messages/stream"]["body"]>;

/** What a call to route K takes: its path parameters, query and body, each only where the route has one. */
export type RouteInput<K extends ApiRouteKey> = ParamsInput<K> & QueryInput<K> & BodyInput<K>;
export type RouteResult<K extends ApiRouteKey> = z.output<Spec<K>["response"]>;
/** Per call: a signal that cancels it, and a look at the answer's headers before its body is read. */
export type CallOptions = { signal?: AbortSignal; onHeaders?: (headers: Headers) => void };
type InputArgs<I> = {} extends I ? [input?: I, options?: CallOptions] : [input: I, options?: CallOptions];

type AnyInput = { params?: Record<string, string>; query?: Record<string, string | undefined>; body?: unknown };

/** The path of a route key with its `:name` segments filled in, and the query string appended. */
export function routePath(key: string, input: AnyInput = {}): string {
  const pattern = key.slice(key.indexOf(" ") + 1);
  const path = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(input.params?.[name] ?? ""));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.set(name, value);
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

async function errorOf(response: Response): Promise<ApiError> {
  // Any body at all (a proxy's HTML page fails to parse): each field falls back on its own.
  const parsed = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody> | null;
  const error: Partial<ApiErrorBody["error"]> = parsed?.error ?? {};
  return new ApiError(
    response.status,
    error.code ?? "internal",
    error.message ?? `request failed (${response.status})`,
    error.issues,
  );
}

export class ApiClient {
  /**
   * Called when a browser tab gets a 401: its session ended (revoked, expired, or a new password),
   * so the tab should show the sign-in page. Never with a token (VS Code), whose 401 means a bug.
   */
  onUnauthorized: (() => void) | undefined;

  constructor(private readonly boot: Bootstrap) {}

  private async failure(response: Response): Promise<ApiError> {
    if (response.status === 401 && !this.boot.token) this.onUnauthorized?.();
    return errorOf(response);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.boot.token ? { authorization: `Bearer ${this.boot.token}` } : {}), ...extra };
  }

  private url(path: string): string {
    return `${this.boot.serverUrl}${path}`;
  }

  /** Calls a route of the table: `api.call("GET /api/chats/:id", { params: { id } })`. */
  async call<K extends ApiRouteKey>(key: K, ...[input, options]: InputArgs<RouteInput<K>>): Promise<RouteResult<K>> {
    const method = key.slice(0, key.indexOf(" "));
    const { body } = (input ?? {}) as AnyInput;
    // POSTs without a body still send `{}`: the server's body parser expects JSON.
    const sent = body === undefined && method === "POST" ? {} : body;
    const response = await fetch(this.url(routePath(key, input as AnyInput)), {
      method,
      credentials: "include",
      signal: options?.signal,
      headers: this.headers(sent === undefined ? {} : { "content-type": "application/json" }),
      body: sent === undefined ? undefined : JSON.stringify(sent),
    });
    if (!response.ok) throw await this.failure(response);
    options?.onHeaders?.(response.headers);
    if (response.status === 204) return undefined as RouteResult<K>;
    const text = await response.text();
    // Typed by the table, not parsed: the server validates what it sends, and a stricter client
    // than server would turn a harmless extra key into a blank page.
    return (text ? JSON.parse(text) : undefined) as RouteResult<K>;
  }

  /**
   * Fetches a file of `downloadRoutes` (`api.download("GET /api/chats/:id/export", {params, query})`):
   * its content, and the name the server's Content-Disposition gives it.
   */
  async download<K extends DownloadRouteKey>(
    key: K,
    input: ParamsInput<K> & { query?: z.input<(typeof downloadRoutes)[K]["query"]> },
  ): Promise<{ blob: Blob; fileName: string }> {
    const response = await fetch(this.url(routePath(key, input as AnyInput)), {
      credentials: "include",
      headers: this.headers(),
    });
    if (!response.ok) throw await this.failure(response);
    return { blob: await response.blob(), fileName: attachmentName(response.headers.get("content-disposition")) };
  }

  /** Sends a multipart upload (`api.upload("POST /api/dictation/transcribe", { audio: blob })`); a Blob field goes as a file named `fileName`. */
  async upload<K extends UploadRouteKey>(
    key: K,
    fields: Partial<Record<(typeof uploadRoutes)[K]["fields"][number], string | Blob>>,
    options: { fileName?: string; signal?: AbortSignal } = {},
  ): Promise<z.output<(typeof uploadRoutes)[K]["response"]>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields) as [string, string | Blob | undefined][]) {
      if (value instanceof Blob) form.set(name, value, options.fileName ?? name);
      else if (value !== undefined) form.set(name, value);
    }
    // No content-type header: the browser writes multipart/form-data with its boundary.
    const response = await fetch(this.url(routePath(key)), {
      method: "POST",
      credentials: "include",
      headers: this.headers(),
      body: form,
      signal: options.signal,
    });
    if (!response.ok) throw await this.failure(response);
    return (await response.json()) as z.output<(typeof uploadRoutes)[K]["response"]>;
  }

  /**
   * Reads a server-sent event stream with fetch (so a Bearer token can be sent); resolves when the
   * stream ends. Non-stream answers (400, 409…) reject with ApiError.
   */
  private async stream(
    key: StreamRouteKey,
    input: AnyInput,
    onEvent: (name: string, data: unknown, id?: string) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    const method = key.slice(0, key.indexOf(" "));
    const response = await fetch(this.url(routePath(key, input)), {
      method,
      credentials: "include",
      signal,
      headers: this.headers({
        accept: "text/event-stream",
        ...(input.body === undefined ? {} : { "content-type": "application/json" }),
      }),
      body: input.body === undefined ? undefined : JSON.stringify(input.body),
    });
    if (response.status === 204) return;
    if (!response.ok || !response.headers.get("content-type")?.startsWith("text/event-stream"))
      throw await this.failure(response);
    await readSse(response.body!, onEvent);
  }

  /** A chat turn: sends a message, or follows the live turn; each event parsed with its schema. */
  chatStream(
    key: "POST /api/chats/:id/messages/stream" | "GET /api/chats/:id/stream",
    input: { params: { id: string }; body?: ChatStreamBody },
    onEvent: (event: StreamEvent) => void,
    signal?: AbortSignal,
  ): Promise<void> {
    return this.stream(
      key,
      input,
      (name, data) => {
        const event = readStreamEvent(name, data);
        if (event) onEvent(event);
      },
      signal,
    );
  }

  /**
   * App-wide change events, reconnecting with backoff until `signal` aborts. `onConnected` tells
   * whether the stream is open, so callers know if a change of theirs will come back as an event.
   */
  subscribe(
    onEvent: (event: AppEvent) => void,
    signal: AbortSignal,
    onConnected: (connected: boolean) => void = () => {},
  ): void {
    let delay = 1000;
    const connect = async () => {
      while (!signal.aborted) {
        try {
          await this.stream(
            "GET /api/events",
            {},
            (name, data) => {
              delay = 1000;
              if (name === "ready") return onConnected(true);
              const event = readAppEvent(name, data);
              if (event) onEvent(event);
            },
            signal,
          );
        } catch {
          // server restarting or network hiccup: try again shortly
        }
        onConnected(false);
        if (signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 15_000);
      }
    };
    void connect();
  }
}
