// Streams one chat completion: POST {base}/chat/completions with stream:true, SSE framing by
// eventsource-parser, each `data:` chunk interpreted by core/upstream-chunk.
import { createParser } from "eventsource-parser";
import { interpretChunk, type ChunkPart } from "../../core/upstream-chunk";
import { gatewayRequest, StreamDroppedError, UpstreamError, upstreamMessage, type GatewayConnection } from "./http";

export type UpstreamMessage = { role: "system" | "user" | "assistant" | "tool"; content: unknown; [key: string]: unknown };

export type ChatCompletionBody = {
  model: string;
  messages: UpstreamMessage[];
  stream: true;
  [key: string]: unknown;
};

/**
 * Yields the interpreted parts of every chunk until `[DONE]`. Throws UpstreamError for a non-200
 * answer, StreamDroppedError when the body ends without `[DONE]`, and the abort reason on abort.
 */
export async function* streamChatCompletion(
  connection: GatewayConnection,
  body: ChatCompletionBody,
  signal: AbortSignal,
): AsyncGenerator<ChunkPart> {
  const response = await gatewayRequest(connection, "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(body),
    signal,
  });
  if (response.statusCode !== 200) {
    const text = await response.body.text().catch(() => "");
    const retryAfter = response.headers["retry-after"];
    throw new UpstreamError(response.statusCode, upstreamMessage(response.statusCode, text), Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  }

  const pending: ChunkPart[] = [];
  let done = false;
  const parser = createParser({
    onEvent(event) {
      if (done) return;
      if (event.data === "[DONE]") {
        done = true;
        return;
      }
      try {
        pending.push(...interpretChunk(JSON.parse(event.data)));
      } catch {
        // A chunk that is not JSON carries nothing we can show; the stream goes on.
      }
    },
  });
  const decoder = new TextDecoder();
  const chunks = response.body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<unknown>;
    try {
      next = await chunks.next();
    } catch (error) {
      // After a 200, a socket that fails mid-body is a dropped stream, not an unreachable gateway.
      if (signal.aborted) throw error;
      throw new StreamDroppedError();
    }
    if (next.done) break;
    parser.feed(decoder.decode(next.value as Uint8Array, { stream: true }));
    while (pending.length > 0) yield pending.shift()!;
    if (done) {
      response.body.destroy();
      return;
    }
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift()!;
  if (!done) throw new StreamDroppedError();
}
