// One shared keep-alive connection pool for every request to the gateway, and the error type
// for an upstream HTTP failure.
import type { Agent, Dispatcher } from "undici";
import { isCredentialHeader } from "../settings/settings-secrets";
import { lazyModule } from "../platform/lazy-module";
import { missingVersionHint, upstreamMessage, withoutSecret } from "./upstream-error";

export { upstreamMessage };

/**
 * undici, loaded after start-up (see lazy-module.ts): loading it takes about 40 ms, a seventh of the
 * server's start-up, and nothing needs it before a chat is sent.
 */
export const loadUndici = lazyModule(() => import("undici"));

let dispatcher: Agent | undefined;

function gatewayDispatcher({ Agent }: typeof import("undici")): Agent {
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

type RequestOptions = Omit<Dispatcher.RequestOptions, "origin" | "path" | "method"> & {
  method?: Dispatcher.HttpMethod;
};

/**
 * Sends a request through the shared pool. Once undici has loaded (it is warmed right after start-up),
 * the request is dispatched before this returns: undici writes it on a reused connection from an
 * immediate it queues now, so what the caller queues after this call runs after the request has left
 * (a chat turn stores its rows then; see ChatTurns.start). Awaiting anything first would let those run
 * before the write, between the user's Enter and the first token.
 */
export function gatewayRequest(
  connection: GatewayConnection,
  path: string,
  options: RequestOptions = {},
): Promise<Dispatcher.ResponseData> {
  const undici = loadUndici.loaded();
  if (!undici) return loadUndici().then(() => gatewayRequest(connection, path, options));
  try {
    return undici.request(endpoint(connection, path), {
      method: "GET",
      ...options,
      headers: { ...connection.headers, ...(options.headers as Record<string, string> | undefined) },
      dispatcher: gatewayDispatcher(undici),
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Every credential a connection sends (the Bearer key, and the values of credential headers such as
 * `x-api-key`), so that upstream messages quoting one can be scrubbed.
 */
export function connectionSecrets(connection: GatewayConnection): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(connection.headers)) {
    if (!isCredentialHeader(name)) continue;
    secrets.push(value);
    const bearer = /^Bearer\s+(.+)$/i.exec(value);
    if (bearer) secrets.push(bearer[1]!);
  }
  return secrets;
}

/**
 * The error for a failed answer to `path`, in the server's own words. A 404 from a base URL that
 * has no `/v1` also says where the routes probably are.
 */
export function upstreamFailure(
  connection: GatewayConnection,
  path: string,
  status: number,
  text: string,
  retryAfter?: string,
): UpstreamError {
  const message = withoutSecret(upstreamMessage(status, text), connectionSecrets(connection));
  const hint = status === 404 ? missingVersionHint(connection.baseUrl, path) : undefined;
  return new UpstreamError(status, hint ? `${hint} (the server said: ${message})` : message, retryAfter);
}

export async function readJson(connection: GatewayConnection, path: string, signal?: AbortSignal): Promise<unknown> {
  const response = await gatewayRequest(connection, path, { signal });
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw upstreamFailure(connection, path, response.statusCode, text);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError(502, "the gateway answered with something that is not JSON");
  }
}
