// An in-memory gateway for the gateway client's unit tests: undici's MockAgent answers the requests
// the client sends through its own keep-alive pool, so nothing listens and nothing leaves the process.
// The client keeps its pool private (src/gateway/http.ts), so while a double is open every
// undici Agent dispatches through the mock; close() puts that back and drops the client's pool.
import { Agent, MockAgent, type Dispatcher } from "undici";
import { closeGatewayDispatcher, type GatewayConnection } from "../../../src/gateway/http";

export const ORIGIN = "http://gateway.test";
export const KEY = "sk-unit-test-key-0123456789";
export const connection: GatewayConnection = {
  baseUrl: `${ORIGIN}/api/v1`,
  headers: { authorization: `Bearer ${KEY}`, "x-title": "Parley" },
};

/** A request as the double received it. */
export type Seen = { method: string; path: string; headers: Record<string, string>; body: string; raw: unknown };

export type GatewayDouble = {
  /** Where to register answers (`intercept({ path, method }).reply(...)`). */
  pool: ReturnType<MockAgent["get"]>;
  /** Requests received so far, in order. */
  seen: Seen[];
  close(): Promise<void>;
};

const BASE_DISPATCH = Agent.prototype.dispatch;

function headersOf(raw: Dispatcher.DispatchOptions["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(raw))
    for (let i = 0; i + 1 < raw.length; i += 2) out[String(raw[i]).toLowerCase()] = String(raw[i + 1]);
  else if (raw)
    for (const [name, value] of Object.entries(raw as Record<string, unknown>)) out[name.toLowerCase()] = String(value);
  return out;
}

export function openGatewayDouble(): GatewayDouble {
  const mock = new MockAgent();
  mock.disableNetConnect();
  const seen: Seen[] = [];
  let inside = false;
  // The mock's own Agent dispatches too: only the outer call goes to the mock.
  Agent.prototype.dispatch = function (
    this: Agent,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ) {
    if (inside) return BASE_DISPATCH.call(this, options, handler);
    inside = true;
    try {
      seen.push({
        method: options.method,
        path: options.path,
        headers: headersOf(options.headers),
        // A chat completion's body comes as bytes (see request-body.ts), other requests' as text.
        body:
          typeof options.body === "string"
            ? options.body
            : options.body instanceof Uint8Array
              ? Buffer.from(options.body).toString("utf8")
              : "",
        raw: options.body,
      });
      return mock.dispatch(options, handler);
    } finally {
      inside = false;
    }
  };
  return {
    pool: mock.get(ORIGIN),
    seen,
    async close() {
      delete (Agent.prototype as { dispatch?: unknown }).dispatch;
      await closeGatewayDispatcher();
      await mock.close();
    },
  };
}

/** An SSE body of `data:` lines, as a chat completion streams. */
export function sse(...events: (object | string)[]): string {
  return events.map((event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`).join("");
}
