// One shared keep-alive connection pool for every request to the gateway, and the error type
// for an upstream HTTP failure.
import { Agent, request, type Dispatcher } from "undici";

let dispatcher: Agent | undefined;

export function gatewayDispatcher(): Agent {
  dispatcher ??= new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 120_000, connections: 256 });
  return dispatcher;
}

export async function closeGatewayDispatcher(): Promise<void> {
  const current = dispatcher;
  dispatcher = undefined;
  await current?.close().catch(() => {});
}

export type GatewayConnection = {
  baseUrl: string;
  headers: Record<string, string>;
};

/** An upstream answer with a non-success status, before any streamed token. */
export class UpstreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

/** The stream ended without `[DONE]`: the connection dropped. */
export class StreamDroppedError extends Error {
  constructor() {
    super("the gateway closed the stream before it finished");
  }
}

export function endpoint(connection: GatewayConnection, path: string): string {
  return `${connection.baseUrl.replace(/\/+$/, "")}${path}`;
}

type RequestOptions = Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & { method?: Dispatcher.HttpMethod };

export async function gatewayRequest(connection: GatewayConnection, path: string, options: RequestOptions = {}) {
  return request(endpoint(connection, path), {
    method: "GET",
    ...options,
    headers: { ...connection.headers, ...(options.headers as Record<string, string> | undefined) },
    dispatcher: gatewayDispatcher(),
  });
}

/** The `{error:{message}}` text of a gateway error body, or a short fallback; never the whole body. */
export function upstreamMessage(status: number, text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === "object" ? parsed.error?.message : (parsed.error ?? parsed.message);
    if (typeof message === "string" && message) return message.slice(0, 500);
  } catch {
    // not JSON
  }
  return `the gateway answered ${status}`;
}

export async function readJson(connection: GatewayConnection, path: string, signal?: AbortSignal): Promise<unknown> {
  const response = await gatewayRequest(connection, path, { signal });
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new UpstreamError(response.statusCode, upstreamMessage(response.statusCode, text));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError(502, "the gateway answered with something that is not JSON");
  }
}
