// A small OpenAI-style server on loopback whose answers a test writes byte for byte: for the shapes no
// server from npm can be made to send (an HTTP error body in any shape, a stream that ends on plain
// text, a catalog with `supported_parameters`). It keeps every request it got, headers included.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: any };
export type ScriptedAnswer = { status?: number; contentType?: string; body: string };

export type ScriptedUpstream = {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  requests: ScriptedRequest[];
  /** The `data` of GET /v1/models. */
  models: Record<string, unknown>[];
  /** The answer to POST /v1/chat/completions; the default streams "ok". */
  chat: (request: ScriptedRequest) => ScriptedAnswer;
  stop(): Promise<void>;
};

/** An SSE body of `data:` events (objects as JSON, strings as they are). */
export function sseBody(...events: unknown[]): string {
  return events.map((event) => `data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`).join("");
}

export const textChunk = (content: string, finishReason: string | null = null) => ({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta: { content }, finish_reason: finishReason }],
});

export const okStream = (text = "ok"): ScriptedAnswer => ({
  contentType: "text/event-stream",
  body: sseBody(textChunk(text), textChunk("", "stop"), "[DONE]"),
});

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  const upstream: Omit<ScriptedUpstream, "baseUrl" | "stop"> = {
    requests: [],
    models: [{ id: "local-model", object: "model", owned_by: "local" }],
    chat: () => okStream(),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // kept as text
      }
      const request = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      upstream.requests.push(request);
      let answer: ScriptedAnswer;
      if (req.method === "GET" && req.url === "/v1/models")
        answer = { contentType: "application/json", body: JSON.stringify({ object: "list", data: upstream.models }) };
      else if (req.method === "POST" && req.url === "/v1/chat/completions") answer = upstream.chat(request);
      else answer = { status: 404, contentType: "application/json", body: JSON.stringify({ detail: "Not Found" }) };
      res.writeHead(answer.status ?? 200, { "content-type": answer.contentType ?? "application/json" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(upstream, {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
