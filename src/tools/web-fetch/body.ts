// Reads a response body up to a limit and not a byte further (contract 7.5): the stream is cancelled
// as soon as the limit is passed, so a 10 GB body costs the limit and a little more, and a compressed
// body is counted as it decompresses, so a small gzip bomb stops at the same limit.
import type { ReadableStream } from "node:stream/web";

export type LimitedBody = { bytes: Uint8Array; truncated: boolean };

export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<LimitedBody> {
  if (!body) return { bytes: new Uint8Array(), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: concat(chunks, total), truncated: false };
      const room = limit - total;
      if (value.length > room) {
        chunks.push(value.subarray(0, room));
        total += room;
        return { bytes: concat(chunks, total), truncated: true };
      }
      chunks.push(value);
      total += value.length;
    }
  } finally {
    // Stops the download (and the decompression) at once; a body read to its end has nothing left.
    await reader.cancel().catch(() => {});
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
