// The mention worker: scans, watches, indexes and ranks each project's files off the main thread,
// so that a million paths never stall the server. Messages are MentionRequest / MentionReply.
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { setImmediate as yieldToEvents } from "node:timers/promises";
import type { FileMention } from "../shared/ranking/rank-mentions";
import type { MentionCategory } from "../shared/mentions";
import { lowerHelperThreads, lowerOwnThread, ownThreadId } from "../platform/background-priority";
import { processWatch } from "./file-watcher";
import { KeystrokeOrder } from "./keystroke-order";
import { ProjectFiles, type ProjectFilesOptions } from "./file-index";
import { rankingHelperMemory } from "./ranking-shards";

export type MentionRequest =
  | { id: number; op: "scan"; projectId: string; dir: string }
  | { id: number; op: "catalog"; projectId: string; dir: string; tags: FileMention[] }
  | { id: number; op: "body-part"; body: number; at: number; into: SharedArrayBuffer }
  | { id: number; op: "body-release"; body: number }
  | {
      id: number;
      op: "search";
      projectId: string;
      dir: string;
      tags: FileMention[];
      query: string;
      category?: MentionCategory;
      limit?: number;
      clientId?: string;
      seq?: number;
    }
  | { id: number; op: "cancel"; target: number }
  | { id: number; op: "stats" }
  | { id: number; op: "forget"; projectIds: string[] };
/** What scan and catalog answer: a body held here, read a part at a time (see MentionEngine.readBody). */
export type HeldBody = { body: number; size: number };
export type MentionReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string; superseded?: boolean };

// This thread (scans, index builds, ranking) and the process's helper threads (this worker's
// garbage collection, the scan's directory reads) yield the CPU to the main thread.
const threadId = parentPort ? ownThreadId() : undefined;
if (parentPort) {
  lowerOwnThread();
  lowerHelperThreads();
}
/** This thread's nice value where it can be read (Linux), for stats. */
const ownPriority = () => (threadId === undefined ? undefined : os.getPriority(threadId));

const projects = new Map<string, ProjectFiles>();
const log = (message: string) => console.error(`parley mentions: ${message}`);
// Each project's watcher runs in a child process of its own, which a stop can kill mid-walk.
const options: ProjectFilesOptions = { watch: processWatch(log), log };
/** Which searches are still wanted: a client's newest (by project and client id), not cancelled. */
const order = new KeystrokeOrder();

function project(projectId: string, dir: string): ProjectFiles {
  let files = projects.get(projectId);
  if (files && files.dir !== dir) {
    void files.close();
    files = undefined;
  }
  if (!files) projects.set(projectId, (files = new ProjectFiles(dir, options)));
  return files;
}

class Superseded extends Error {}

async function handle(request: MentionRequest): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (request.op) {
    case "scan":
      return { value: hold(await project(request.projectId, request.dir).scanBody()) };
    case "catalog":
      return { value: hold(await project(request.projectId, request.dir).catalogFiles(request.tags)) };
    case "body-part":
      return { value: bodyPart(request.body, request.at, request.into) };
    case "body-release":
      release(request.body);
      return { value: null };
    case "search": {
      const key = request.clientId === undefined ? undefined : `${request.projectId}\n${request.clientId}`;
      try {
        if (!order.arrive(request.id, key, request.seq)) throw new Superseded();
        const files = project(request.projectId, request.dir);
        await files.mentions(request.tags);
        // Let queued keystrokes arrive first: a newer one from the same client makes this one moot.
        await yieldToEvents();
        if (order.moot(request.id, key)) throw new Superseded();
        return {
          value: await files.search(
            request.tags,
            request.query,
            { category: request.category, limit: request.limit },
            request.clientId,
          ),
        };
      } finally {
        order.finish(request.id);
      }
    }
    case "cancel":
      order.cancel(request.target);
      return { value: null };
    case "forget":
      await Promise.all(
        request.projectIds.map((projectId) => {
          const files = projects.get(projectId);
          projects.delete(projectId);
          return files?.close();
        }),
      );
      return { value: null };
    case "stats":
      return {
        value: {
          projects: [...projects.values()].map((p) => ({
            dir: p.dir,
            files: p.paths.length,
            watching: p.isWatching,
            watcherPid: p.watcherPid,
            events: p.eventsSeen,
          })),
          bodies: bodies.size,
          searches: { inFlight: order.inFlight, skipped: order.skipped },
          memory: process.memoryUsage(),
          rankingHelper: await rankingHelperMemory(),
          priority: ownPriority(),
        },
      };
  }
}

/**
 * Bodies of scans and catalogs (about 100 MB at a million files), held here and handed out a part
 * at a time as the client takes them, each copied into the one buffer the reader shares with this
 * thread: the main thread never holds more than a part, nor allocates one, so a big body neither
 * grows its memory nor sets off its garbage collector. One a client abandons is dropped after
 * BODY_IDLE_MS without a read.
 */
const bodies = new Map<number, { bytes: Buffer; idle: NodeJS.Timeout }>();
let nextBody = 1;
const BODY_IDLE_MS = 60_000;

function hold(text: string): HeldBody {
  const body = nextBody++;
  const bytes = Buffer.from(text);
  bodies.set(body, { bytes, idle: setTimeout(() => release(body), BODY_IDLE_MS).unref() });
  return { body, size: bytes.length };
}

/** Copies the part of a held body from byte `at` into `into` (as much as it holds) and says how long it is; the last part releases the body. */
function bodyPart(body: number, at: number, into: SharedArrayBuffer): number {
  const held = bodies.get(body);
  if (!held) throw new Error("that body is no longer held");
  held.idle.refresh();
  const end = Math.min(held.bytes.length, at + into.byteLength);
  new Uint8Array(into).set(held.bytes.subarray(at, end));
  if (end >= held.bytes.length) release(body);
  return end - at;
}

function release(body: number): void {
  clearTimeout(bodies.get(body)?.idle);
  bodies.delete(body);
}

parentPort?.on("message", (request: MentionRequest) => {
  const reply = handle(request);
  // A first scan may have started libuv's thread pool just now.
  lowerHelperThreads();
  reply.then(
    ({ value, transfer }) =>
      parentPort!.postMessage({ id: request.id, ok: true, value } satisfies MentionReply, transfer ?? []),
    (error: unknown) =>
      parentPort!.postMessage({
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        superseded: error instanceof Superseded,
      } satisfies MentionReply),
  );
});
