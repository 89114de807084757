// Background work (scans, index builds, file watching, garbage collection) must not take the CPU
// from the server's main thread (chat streams, health checks) on a busy machine. Linux keeps a nice
// value per thread (setpriority() with a thread id changes only that thread, and a new thread
// inherits its starter's), so each piece of background work lowers the threads that do it.
// Elsewhere, or where it is refused, the default priority stays.
import fs from "node:fs";
import os from "node:os";

/** The nice value of background threads (the main thread keeps its own, normally 0). */
export const BACKGROUND_NICE = 10;

/**
 * The threads of this process that only ever do background work, by the names Node gives them: V8's
 * helpers (concurrent and parallel garbage collection, for the mention worker's big heap too), its
 * delayed-task thread, and libuv's pool (the scan's directory reads, the watcher's first walk).
 * The main thread still gets them when it waits on them; it no longer waits behind them for a core.
 */
const HELPER_THREADS = new Set(["V8Worker", "DelayedTaskSche", "libuv-worker"]);

function lower(thread: number): void {
  try {
    os.setPriority(thread, BACKGROUND_NICE);
  } catch {
    // Not allowed: the default priority stays.
  }
}

function threads(): { id: number; name: string }[] {
  try {
    return fs
      .readdirSync("/proc/self/task")
      .map((id) => ({ id: Number(id), name: fs.readFileSync(`/proc/self/task/${id}/comm`, "utf8").trim() }));
  } catch {
    return []; // Not Linux.
  }
}

/** The calling thread's id where threads have their own priority (Linux), else undefined. */
export function ownThreadId(): number | undefined {
  if (process.platform !== "linux") return undefined;
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/** Lowers the calling thread (a worker thread: never the process's main thread). */
export function lowerOwnThread(): void {
  const tid = ownThreadId();
  if (tid !== undefined && tid !== process.pid) lower(tid);
}

let threadsSeen = 0;

/**
 * Lowers this process's helper threads (see HELPER_THREADS). libuv starts its pool on first use,
 * so callers call this again after starting I/O; it looks at the threads again only when their
 * number changed (one directory read).
 */
export function lowerHelperThreads(): void {
  let count: number;
  try {
    count = fs.readdirSync("/proc/self/task").length;
  } catch {
    return; // Not Linux.
  }
  if (count === threadsSeen) return;
  threadsSeen = count;
  for (const { id, name } of threads()) if (HELPER_THREADS.has(name)) lower(id);
}

/** Lowers every thread of this process, the main one included (a process that only does background work). */
export function lowerWholeProcess(): void {
  const all = threads();
  if (all.length === 0) lower(0); // Elsewhere, 0 is this process.
  for (const { id } of all) lower(id);
}
