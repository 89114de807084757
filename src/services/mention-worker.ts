// The mention worker: scans, watches, indexes and ranks each project's files off the main thread,
// so that a million paths never stall the server. Messages are MentionRequest / MentionReply.
import fs from "node:fs";
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { setImmediate as yieldToEvents } from "node:timers/promises";
import type { FileMention } from "../core/mention-search";
import type { MentionCategory } from "../shared/mentions";
import { parcelWatch, ProjectFiles, type ProjectFilesOptions } from "./project-files";

export type MentionRequest =
  | { id: number; op: "scan"; projectId: string; dir: string }
  | { id: number; op: "catalog"; projectId: string; dir: string; tags: FileMention[] }
  | { id: number; op: "search"; projectId: string; dir: string; tags: FileMention[]; query: string; category?: MentionCategory; limit?: number; clientId?: string }
  | { id: number; op: "cancel"; target: number }
  | { id: number; op: "stats" }
  | { id: number; op: "watch-starting" }
  | { id: number; op: "forget"; projectIds: string[] };
export type MentionReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string; superseded?: boolean };

/**
 * Scans and index builds are background work: on a busy machine they must not take the CPU from
 * the server's main thread (chat streams, health checks). Linux keeps a nice value per thread, and
 * setpriority() with a thread id changes only that thread, so this worker lowers its own.
 * Elsewhere (or if refused) it keeps the default priority.
 */
export const WORKER_NICE = 10;
function ownThreadId(): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 && tid !== process.pid ? tid : undefined;
  } catch {
    return undefined;
  }
}
const threadId = parentPort ? ownThreadId() : undefined;
if (threadId !== undefined) {
  try {
    os.setPriority(threadId, WORKER_NICE);
  } catch {
    // Not allowed: the default priority stays.
  }
}
/** This thread's nice value where it can be read (Linux), for stats. */
const ownPriority = () => (threadId === undefined ? undefined : os.getPriority(threadId));

const projects = new Map<string, ProjectFiles>();
/**
 * Watcher subscriptions under way: each walks its whole tree in native threads that nothing can
 * interrupt, closed projects' included (see watch-starting, and the CLI's shutdown).
 */
let subscribing = 0;
const options: ProjectFilesOptions = {
  watch: async (...args) => {
    subscribing++;
    try {
      return await parcelWatch(...args);
    } finally {
      subscribing--;
    }
  },
};
/** The newest search per client (by project and client id): older ones still waiting are skipped. */
const newest = new Map<string, number>();
const cancelled = new Set<number>();

function project(projectId: string, dir: string): ProjectFiles {
  let files = projects.get(projectId);
  if (files && files.dir !== dir) {
    void files.close();
    files = undefined;
  }
  if (!files) projects.set(projectId, (files = new ProjectFiles(dir, { ...options, log: (m) => console.error(`parley mentions: ${m}`) })));
  return files;
}

class Superseded extends Error {}

async function handle(request: MentionRequest): Promise<{ value: unknown; transfer?: ArrayBuffer[] }> {
  switch (request.op) {
    case "scan": {
      const body = encode(await project(request.projectId, request.dir).scanBody());
      return { value: body, transfer: [body] };
    }
    case "catalog": {
      const body = encode(await project(request.projectId, request.dir).catalogFiles(request.tags));
      return { value: body, transfer: [body] };
    }
    case "search": {
      const key = request.clientId === undefined ? undefined : `${request.projectId}\n${request.clientId}`;
      if (key) newest.set(key, request.id);
      const files = project(request.projectId, request.dir);
      await files.mentions(request.tags);
      // Let queued keystrokes arrive first: a newer one from the same client makes this one moot.
      await yieldToEvents();
      if (cancelled.delete(request.id) || (key && newest.get(key) !== request.id)) throw new Superseded();
      const value = await files.search(request.tags, request.query, { category: request.category, limit: request.limit }, request.clientId);
      if (key && newest.get(key) === request.id) newest.delete(key);
      return { value };
    }
    case "cancel":
      cancelled.add(request.target);
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
    case "watch-starting":
      return { value: subscribing > 0 };
    case "stats":
      return { value: { projects: [...projects.values()].map((p) => ({ dir: p.dir, files: p.paths.length, watching: p.isWatching, events: p.eventsSeen })), memory: process.memoryUsage(), priority: ownPriority() } };
  }
}

function encode(text: string): ArrayBuffer {
  const bytes = Buffer.from(text);
  // A Buffer may sit in a shared pool: copy into an ArrayBuffer of its own so it can be transferred.
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? (bytes.buffer as ArrayBuffer) : new Uint8Array(bytes).buffer;
}

parentPort?.on("message", (request: MentionRequest) => {
  handle(request).then(
    ({ value, transfer }) => parentPort!.postMessage({ id: request.id, ok: true, value } satisfies MentionReply, transfer ?? []),
    (error: unknown) =>
      parentPort!.postMessage({ id: request.id, ok: false, error: error instanceof Error ? error.message : String(error), superseded: error instanceof Superseded } satisfies MentionReply),
  );
});
