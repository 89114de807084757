// The main thread's side of the mention worker: requests by id, replies as promises. One worker
// serves the whole process (every server runtime in it shares its indexes' memory budget): started
// on first use, again after a crash, never holding the process open. Each engine (one per server
// runtime) closes the projects it opened.
import { Worker } from "node:worker_threads";
import { bundleEntry } from "../platform/bundle-entry";
import type { HeldBody, MentionReply, MentionRequest } from "./mention-worker";

/** The most of a held body one read takes. */
const BODY_PART_BYTES = 1 << 20;

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

/** A search that a newer keystroke of the same client replaced before it ran. */
export class SupersededError extends Error {}

const shared = {
  worker: undefined as Worker | undefined,
  pending: new Map<number, Pending>(),
  nextId: 1,
  log: (_message: string) => {},
};

function startWorker(): Worker {
  if (shared.worker) return shared.worker;
  const { file, execArgv } = bundleEntry("mention-worker", import.meta.url);
  const worker = new Worker(file, { execArgv });
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
  // After the listeners: on Node 24 a "message" listener added later refs the worker's port again,
  // and the process could not exit while the (idle) worker lived.
  worker.unref();
  shared.worker = worker;
  return worker;
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
    const id = shared.nextId++;
    // The worker's failure (a failure to start it included) rejects the reply.
    const reply = new Promise<T>((resolve, reject) => {
      const worker = startWorker();
      shared.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ ...message, id });
    });
    signal?.addEventListener(
      "abort",
      () => shared.worker?.postMessage({ op: "cancel", target: id, id: shared.nextId++ }),
      { once: true },
    );
    return reply;
  }

  /**
   * A body the worker holds (a scan's, a catalog's), a part at a time; stopping early releases it.
   * The worker writes every part into one buffer shared with it: a buffer of its own a part (a
   * hundred at a million files) set off a full garbage collection of this thread every few parts,
   * each a stall. So a part is only good until the next one is asked for (see sendBody).
   */
  async *readBody({ body, size }: HeldBody): AsyncGenerator<Buffer> {
    const into = new SharedArrayBuffer(Math.max(1, Math.min(size, BODY_PART_BYTES)));
    let at = 0;
    try {
      while (at < size) {
        const length = await this.request<number>({ op: "body-part", body, at, into });
        if (!(length > 0)) throw new Error("the mention worker sent an empty part");
        at += length;
        yield Buffer.from(into, 0, length);
      }
    } finally {
      if (at < size) this.releaseBody({ body, size });
    }
  }

  /** Lets the worker drop a body that will not be read (further). */
  releaseBody({ body }: HeldBody): void {
    void this.request({ op: "body-release", body }).catch(() => {});
  }

  /** What the worker holds (projects, file counts, whether watched and by which process, bodies not yet read), its searches (running, and skipped as superseded or cancelled), its memory and its thread's nice value (Linux). */
  stats(): Promise<{
    projects: { dir: string; files: number; watching: boolean; watcherPid?: number }[];
    bodies: number;
    searches: { inFlight: number; skipped: number };
    memory: NodeJS.MemoryUsage;
    rankingHelper?: { heapUsed: number; external: number };
    priority?: number;
  }> {
    return this.request({ op: "stats" });
  }

  /** Stops watching and forgets these of its folders (a worktree chat's, once the worktree is gone). */
  forget(projectIds: string[]): void {
    const known = projectIds.filter((id) => this.projects.delete(id));
    if (shared.worker && known.length > 0) void this.request({ op: "forget", projectIds: known }).catch(() => {});
  }

  /** Stops watching and forgets this engine's projects. */
  async close(): Promise<void> {
    if (this.closed) return;
    const projectIds = [...this.projects];
    if (shared.worker && projectIds.length > 0) await this.request({ op: "forget", projectIds }).catch(() => {});
    this.closed = true;
  }
}
