// What runs on this machine, read from /proc (Linux only): the file watcher processes, their threads' nice values.
import fs from "node:fs";

/** Pids of file watcher processes (see src/mentions/file-watcher.ts) watching `dir`. */
export function watcherProcesses(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // Ended meanwhile.
    }
    if (args.some((a) => /file-watcher-process\.(ts|cjs)$/.test(a)) && args.includes(dir)) pids.push(Number(entry));
  }
  return pids;
}

/** The nice value of each thread of process `pid` (field 19 of /proc/<pid>/task/<tid>/stat), or of those named one of `names`. */
export function threadNices(pid: number, names?: readonly string[]): number[] {
  const tids = fs
    .readdirSync(`/proc/${pid}/task`)
    .filter((tid) => !names || names.includes(fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim()));
  return tids.map((tid) => {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces, inside parentheses).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[16]);
  });
}
