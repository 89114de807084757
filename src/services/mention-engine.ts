// The main thread's side of the mention worker: requests by id, replies as promises. One worker
// serves the whole process (the native file watcher loads once per process, and must not be torn
// down under a live subscription): started on first use, again after a crash, never holding the
// process open. Each engine (one per server runtime) closes the projects it opened.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { MentionReply, MentionRequest } from "./mention-worker";

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

/** A search that a newer keystroke of the same client replaced before it ran. */
export class SupersededError extends Error {}

/**
 * Where the worker is: next to the bundle (dist/mention-worker.cjs, beside dist/cli.cjs and
 * dist/extension.cjs), or the TypeScript source under tsx (tests, the bench), loaded with tsx.
 */
export function mentionWorkerEntry(): { file: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".cjs")) return { file: path.join(path.dirname(here), "mention-worker.cjs"), execArgv: [] };
  // Only the loader: workers refuse some process flags (--expose-gc, for one).
  return { file: path.join(path.dirname(here), "mention-worker.ts"), execArgv: ["--import", "tsx"] };
}

const shared = {
  worker: undefined as Worker | undefined,
  pending: new Map<number, Pending>(),
  nextId: 1,
  log: (_message: string) => {},
};

function startWorker(): Worker {
  if (shared.worker) return shared.worker;
  const { file, execArgv } = mentionWorkerEntry();
  const worker = new Worker(file, { execArgv });
  worker.unref();
  worker.on("message", (reply: MentionReply) => {
    const pending = shared.pending.get(reply.id);
    if (!pending) return;
    shared.pending.delete(reply.id);
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(reply.superseded ? new SupersededError(reply.error) : new Error(reply.error));
  });
  const fail = (error: Error) => {
    if (shared.worker === worker) shared.worker = undefined;
    for (const [, pending] of shared.pending) pending.reject(error);
    shared.pending.clear();
  };
  worker.on("error", (error) => {
    shared.log(`mention worker failed: ${error.message}`);
    fail(error);
  });
  worker.on("exit", (code) => fail(new Error(`the mention worker exited (${code})`)));
  shared.worker = worker;
  return worker;
}

/**
 * Posts a request to the worker `worker()` gives; its reply (or the worker's failure, a failure to
 * start it included) settles `reply`.
 */
function send<T>(worker: () => Worker, message: WithoutId<MentionRequest>): { id: number; reply: Promise<T> } {
  const id = shared.nextId++;
  const reply = new Promise<T>((resolve, reject) => {
    const target = worker();
    shared.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    target.postMessage({ ...message, id });
  });
  return { id, reply };
}

/**
 * Whether the mention worker is subscribing a file watcher, answered within `timeoutMs` (true when
 * it does not answer: it cannot be known). Such a subscription walks the whole tree in native
 * threads that cannot be interrupted, and a process exit waits for it (minutes at a million files)
 * and then aborts; see the CLI's shutdown.
 */
export async function watchStarting(timeoutMs: number): Promise<boolean> {
  // Never starts a worker: without one, nothing is subscribing.
  const running = shared.worker;
  if (!running) return false;
  const answer = send<boolean>(() => running, { op: "watch-starting" }).reply.then(
    (value) => value === true,
    () => false,
  );
  const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(true), timeoutMs).unref());
  return Promise.race([answer, late]);
}

export class MentionEngine {
  private readonly projects = new Set<string>();
  private closed = false;

  constructor(log?: (message: string) => void) {
    if (log) shared.log = log;
  }

  request<T = unknown>(message: WithoutId<MentionRequest>, signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new Error("the server is closing"));
    if ("projectId" in message) this.projects.add(message.projectId);
    const { id, reply } = send<T>(startWorker, message);
    signal?.addEventListener("abort", () => shared.worker?.postMessage({ op: "cancel", target: id, id: shared.nextId++ }), { once: true });
    return reply;
  }

  /** What the worker holds (projects, file counts, whether watched), its memory and its thread's nice value (Linux). */
  stats(): Promise<{ projects: { dir: string; files: number; watching: boolean }[]; memory: NodeJS.MemoryUsage; priority?: number }> {
    return this.request({ op: "stats" });
  }

  /** Stops watching and forgets this engine's projects. */
  async close(): Promise<void> {
    if (this.closed) return;
    const projectIds = [...this.projects];
    if (shared.worker && projectIds.length > 0) await this.request({ op: "forget", projectIds }).catch(() => {});
    this.closed = true;
  }
}
