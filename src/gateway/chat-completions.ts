// Streams one chat completion: POST {base}/chat/completions with stream:true, SSE framing by
// eventsource-parser, each `data:` chunk interpreted by core/upstream-chunk.
import { createParser } from "eventsource-parser";
import { interpretChunk, type ChunkPart } from "./upstream-chunk";
import { bodyMessage } from "./upstream-error";
import { requestBody } from "./request-body";
import { gatewayRequest, StreamDroppedError, upstreamFailure, type GatewayConnection } from "./http";

import type { UpstreamMessage } from "../chat/transcript";

export type { UpstreamMessage };

export type ChatCompletionBody = {
  model: string;
  messages: UpstreamMessage[];
  stream: true;
  [key: string]: unknown;
};

const asObject = (value: unknown): object =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};

/**
 * Yields the interpreted parts of every chunk until `[DONE]`. Throws UpstreamError for a non-200
 * answer, StreamDroppedError when the body ends before the server said it was done, and the abort
 * reason on abort. Usage is always asked for: OpenAI-style servers (vLLM, Ollama, LiteLLM) send
 * none without `stream_options.include_usage`, and the gateway ignores it.
 */
/** How long the end of a body may follow its `[DONE]` before the connection is given up. */
export const AFTER_DONE_MS = 1000;

export async function* streamChatCompletion(
  connection: GatewayConnection,
  body: ChatCompletionBody,
  signal: AbortSignal,
): AsyncGenerator<ChunkPart> {
  const response = await gatewayRequest(connection, "/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: requestBody({ ...body, stream_options: { ...asObject(body.stream_options), include_usage: true } }),
    signal,
  });
  if (response.statusCode !== 200) {
    const text = await response.body.text().catch(() => "");
    const retryAfter = response.headers["retry-after"];
    throw upstreamFailure(
      connection,
      "/chat/completions",
      response.statusCode,
      text,
      Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
    );
  }

  const pending: ChunkPart[] = [];
  let done = false;
  // An error chunk or a finish_reason also ends a turn: LiteLLM's proxy and `transformers serve`
  // close a failed stream right after the error chunk, without `[DONE]`.
  let concluded = false;
  let events = 0;
  // The last event's data when it was not JSON: the server's words if the stream ends right after it.
  let unparsed: string | undefined;
  // The body as it came while no event has been read: a server that answered 200 with an error body
  // instead of a stream (JSON or plain text, no `data:` framing) is shown in its own words.
  let head = "";
  const parser = createParser({
    onEvent(event) {
      events++;
      if (done) return;
      if (event.data === "[DONE]") {
        done = true;
        return;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(event.data);
        unparsed = undefined;
      } catch {
        // A chunk that is not JSON carries nothing we can show unless the stream ends with it.
        unparsed = event.data;
        if (event.event !== "error") return;
      }
      const parts = unparsed === undefined ? interpretChunk(chunk) : [];
      // An `event: error` is an error whatever its data looks like.
      if (event.event === "error" && !parts.some((p) => p.type === "error"))
        parts.push(
          endedWith(event.data) ?? { type: "error", code: "upstream_error", message: "the gateway reported an error" },
        );
      if (parts.some((p) => p.type === "error" || p.type === "finish")) concluded = true;
      pending.push(...parts);
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
    const text = decoder.decode(next.value as Uint8Array, { stream: true });
    if (events === 0 && head.length < MAX_HEAD) head += text;
    parser.feed(text);
    while (pending.length > 0) yield pending.shift()!;
    if (done) {
      // Read what follows [DONE] (the end of the body) instead of destroying it: a destroyed body
      // closes the connection, and the next turn would wait for a new one. Bounded in time, not in
      // size (dump's size limit counts the whole body): a server that never ends the body loses its
      // connection after a second, and holds neither it nor a shutdown longer.
      void response.body
        .dump({ limit: Number.MAX_SAFE_INTEGER, signal: AbortSignal.timeout(AFTER_DONE_MS) })
        .catch(() => {});
      return;
    }
  }
  parser.feed(decoder.decode());
  while (pending.length > 0) yield pending.shift()!;
  if (done || concluded) return;
  // Ended without [DONE] or a finish: what the server said last, else the body it sent instead of a
  // stream, else the connection dropped.
  const plain = events === 0 ? notAStream(head) : undefined;
  const said = unparsed !== undefined ? endedWith(unparsed) : plain !== undefined ? endedWith(plain) : undefined;
  if (said) yield said;
  else throw new StreamDroppedError();
}

/** At most this much of a body that is not a stream is kept to read its message. */
const MAX_HEAD = 64 * 1024;

/** A body without any SSE field (keep-alive comments aside), as it is; undefined for a (cut) stream. */
function notAStream(head: string): string | undefined {
  const lines = head.split(/\r\n|\r|\n/).filter((line) => !line.startsWith(":"));
  return lines.some((line) => /^(?:data|event|id|retry)(?::|$)/.test(line)) ? undefined : lines.join("\n");
}

/** An error part with the words of a body or an event's data in any shape; undefined when it says nothing. */
function endedWith(text: string): ChunkPart | undefined {
  const message = bodyMessage(text);
  return message ? { type: "error", code: "upstream_error", message } : undefined;
}
