// Watching a project for changes, from the mention worker: each subscription runs @parcel/watcher (the
// native watcher VS Code uses: one inotify/FSEvents/ReadDirectoryChangesW watch per tree) in a child
// process of its own (file-watcher-process.ts), at a low priority, so that its first walk of a big
// tree never holds up the server's stop and never takes the CPU from the server's main thread.
import { fork, type ChildProcess } from "node:child_process";
import { bundleEntry } from "../platform/bundle-entry";
import type { WatchEvent, WatchFn } from "./file-index";

/** Parent to child, once: what to watch. */
export type WatcherCommand = { dir: string; ignoredDirNames: string[] };
/** Child to parent. `failed`: the subscription was refused; `error`: a watching error after it started. */
export type WatcherMessage =
  | { type: "ready" }
  | { type: "events"; events: WatchEvent[] }
  | { type: "failed"; message: string }
  | { type: "error"; message: string };

/** Watcher processes alive, killed when this process ends (they end on their own too, on disconnect). */
const running = new Set<ChildProcess>();
let exitHookSet = false;

/** Ends a watcher process on purpose (its exit is then no loss). */
function stop(child: ChildProcess): void {
  if (!running.delete(child)) return;
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** A WatchFn whose subscriptions each run in a child process; `log` hears errors after the start. */
export function processWatch(log: (message: string) => void = () => {}): WatchFn {
  return (dir, { ignoredDirNames, onEvents, onLost, signal }) =>
    new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new Error("the project was closed"));
      if (!exitHookSet) {
        exitHookSet = true;
        process.on("exit", () => running.forEach(stop));
      }
      const { file, execArgv } = bundleEntry("file-watcher-process", import.meta.url);
      // The folder in the arguments only so that `ps` says what each watcher watches.
      const child = fork(file, [dir], {
        execArgv,
        stdio: ["ignore", "ignore", "pipe", "ipc"],
        serialization: "advanced",
      });
      running.add(child);
      let started = false;
      let stderr = "";
      child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
      // Only a diagnostic: a failing pipe must not end Parley (an unheard 'error' would); 'exit' reports the loss.
      child.stderr?.on("error", () => {});
      child.on("message", (message: WatcherMessage) => {
        if (message.type === "events") onEvents(message.events);
        else if (message.type === "error") log(`watcher: ${message.message}`);
        else if (message.type === "failed") {
          stop(child);
          reject(new Error(message.message));
        } else if (!started) {
          started = true;
          resolve({ pid: child.pid, unsubscribe: async () => stop(child) });
        }
      });
      child.on("error", (error) => {
        stop(child);
        reject(error);
      });
      child.on("exit", (code, signal) => {
        const stopped = !running.delete(child);
        const why = new Error(
          `the file watcher process exited (${signal ?? code})${stderr.trim() ? `: ${stderr.trim().split("\n").pop()}` : ""}`,
        );
        if (!started) reject(why);
        else if (!stopped) onLost(why);
      });
      signal.addEventListener(
        "abort",
        () => {
          if (started) return;
          stop(child);
          reject(new Error("the project was closed"));
        },
        { once: true },
      );
      child.send({ dir, ignoredDirNames: [...ignoredDirNames] } satisfies WatcherCommand);
    });
}
