// The file watcher's own process: one @parcel/watcher subscription of one project, its events
// passed to the parent over IPC (see file-watcher.ts). Subscribing walks the whole tree in native
// threads that nothing inside a process can interrupt (seconds at a million files), and an exit
// waits for that walk and then aborts; a process of its own can simply be killed.
import { ignoredDirsPatterns } from "./watch-ignore";
import { lowerWholeProcess } from "../platform/background-priority";
import type { WatcherCommand, WatcherMessage } from "./file-watcher";

const send = (message: WatcherMessage) => process.send?.(message);

async function watch({ dir, ignoredDirNames }: WatcherCommand): Promise<void> {
  const watcher = (await import("@parcel/watcher")) as typeof import("@parcel/watcher");
  try {
    await watcher.subscribe(
      dir,
      (error, events) => (error ? send({ type: "error", message: error.message }) : send({ type: "events", events })),
      {
        ignore: ignoredDirsPatterns(ignoredDirNames),
      },
    );
    send({ type: "ready" });
  } catch (error) {
    send({ type: "failed", message: error instanceof Error ? error.message : String(error) });
  }
}

// Every thread, the walk's (started later, inheriting) included, yields the CPU to the server.
lowerWholeProcess();
process.once("message", (command: WatcherCommand) => void watch(command));
// The parent went away (or unsubscribed): end at once. A normal exit would wait for a walk under way.
process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
