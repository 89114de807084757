// Binds the app to a loopback port and shuts it down cleanly: stop accepting, end open streams,
// let in-flight requests finish, close the database.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { createApp, type AppOptions } from "./app";
import type { Runtime } from "../app";
import { closeGatewayDispatcher, loadUndici } from "../gateway/http";
import { loadWebAuthn } from "../access/access-service";
import { warmInBackground } from "../platform/lazy-module";
import { loadMcpSdk } from "../tools/mcp/connection";
import { loadTokenizer } from "../chat/context/token-count";

export const DEFAULT_PORT = 4317;
const PORT_SEARCH_SPAN = 100;
const FORCE_CLOSE_AFTER_MS = 4_000;
const TURN_DRAIN_MS = 2_000;

export type ListenOptions = AppOptions & {
  host?: string;
  /** 0 picks a free port; absent tries 4317, then the next free port above it. */
  port?: number;
};

export type RunningServer = {
  url: string;
  port: number;
  server: http.Server;
  /** Resolves once the libraries kept off the start-up path are loaded (see lazy-module.ts). */
  warmed: Promise<void>;
  close(): Promise<void>;
};

export async function listen(runtime: Runtime, options: ListenOptions): Promise<RunningServer> {
  await runtime.prepare();
  const { app, streams } = createApp(runtime, options);
  const server = http.createServer(app);
  // Streams are long-lived; the idle timeout only applies between requests on a kept-alive socket.
  server.requestTimeout = 0;
  server.on("clientError", answerClientError);
  const host = options.host ?? "127.0.0.1";
  const port = await bindFirstFree(server, host, options.port);
  const urlHost = host.includes(":") ? `[${host}]` : host;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting first; cancelled turns then store their partial answers before streams end.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const force = setTimeout(() => server.closeAllConnections(), FORCE_CLOSE_AFTER_MS);
      runtime.activeTurns.cancelAll();
      await runtime.activeTurns.whenIdle(TURN_DRAIN_MS);
      streams.closeAll();
      server.closeIdleConnections();
      // Every MCP server child stops with Parley: no orphans.
      await runtime.mcp.stopAll();
      await closed;
      clearTimeout(force);
      runtime.close();
      await closeGatewayDispatcher();
    })());

  const warmed = warmInBackground([loadUndici, loadMcpSdk, loadWebAuthn, loadTokenizer]);
  return { url: `http://${urlHost}:${port}`, port, server, warmed, close };
}

/**
 * Requests Node refuses before express sees them (headers too large, malformed request lines) still get
 * the contract's error body rather than a bare status line.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler: never write into a response already under way on a kept-alive socket.
  const inFlight = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage?._headerSent;
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  if (inFlight) {
    // Let the answer already under way finish, then close (a bare destroy would cut it off).
    socket.end();
    return;
  }
  const [status, body] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, { code: "payload_too_large", message: "the request headers are too large" }]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, { code: "invalid_request", message: "the request took too long to arrive" }]
        : [400, { code: "invalid_request", message: "the request could not be parsed as HTTP" }];
  const text = JSON.stringify({ error: body });
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}

async function bindFirstFree(server: http.Server, host: string, requested: number | undefined): Promise<number> {
  if (requested !== undefined) return bind(server, host, requested);
  for (let port = DEFAULT_PORT; port < DEFAULT_PORT + PORT_SEARCH_SPAN; port++) {
    try {
      return await bind(server, host, port);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    }
  }
  return bind(server, host, 0);
}

function bind(server: http.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}
