// Server-sent events on an express response: headers, framed events, keep-alive comments, cleanup.
import type { Request, Response } from "express";

export type SseChannel = {
  send(event: string, data: unknown, id?: number | string): void;
  close(): void;
  readonly closed: boolean;
};

const KEEP_ALIVE_MS = 15_000;

/**
 * Registry of open streams, so shutdown can end them instead of waiting on them, and so a revoked
 * session's streams end at once rather than at their next reconnect.
 */
export class SseRegistry {
  private readonly open = new Map<SseChannel, Request>();
  /** Whether a stream's request still has its credentials (set by the app). */
  authorized: (req: Request) => boolean = () => true;

  add(channel: SseChannel, req: Request): void {
    this.open.set(channel, req);
  }
  remove(channel: SseChannel): void {
    this.open.delete(channel);
  }
  closeAll(): void {
    for (const channel of [...this.open.keys()]) channel.close();
  }
  /** Ends the streams whose session was revoked or expired. */
  recheck(): void {
    for (const [channel, req] of [...this.open]) if (!this.authorized(req)) channel.close();
  }
}

export function openSse(req: Request, res: Response, registry: SseRegistry, onClose?: () => void): SseChannel {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, no-transform");
  res.setHeader("Connection", "keep-alive");
  res.setHeader("X-Accel-Buffering", "no");
  res.flushHeaders();
  res.socket?.setNoDelay(true);

  let closed = false;
  /** Whether an event has gone out in this burst (see send). */
  let burst = false;
  const keepAlive = setInterval(() => res.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
  const channel: SseChannel = {
    send(event, data, id) {
      if (closed) return;
      const idLine = id === undefined ? "" : `id: ${id}\n`;
      res.write(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      // Node holds a response's writes back until the next tick (it corks the socket), and that tick
      // waits for every promise continuation queued meanwhile: an upstream read that brings many chunks,
      // or a step's end with its stores, held back the first token. The first event of a burst leaves at
      // once; the ones after it in the same burst go out together when Node flushes (one write, not one each).
      if (burst) return;
      res.socket?.uncork();
      burst = true;
      process.nextTick(() => (burst = false));
    },
    close() {
      finish();
      res.end();
    },
    get closed() {
      return closed;
    },
  };
  function finish() {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    registry.remove(channel);
    onClose?.();
  }
  // The response, not the request: a POST request emits "close" as soon as its body has been read.
  res.on("close", finish);
  registry.add(channel, req);
  // Opened after its client left (a stream opened a moment after its route ran): its "close" has
  // been and gone, so it is closed already.
  if (res.destroyed || res.socket?.destroyed !== false) finish();
  return channel;
}
