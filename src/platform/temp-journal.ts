// The temp journal: before a write creates its temporary file, the temporary's path is noted in a file
// of its own under Parley's home (`pending-writes/<pid>.<random>`), and the note goes when the write
// ends. A process killed mid-write leaves the note behind, so the next start removes exactly the
// temporaries crashes left in projects and in the home, without walking any tree (contract 7.2).
import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";

/** What every temporary Parley writes is named with. */
export const TEMP_SUFFIX = ".parley-tmp";

export class TempJournal {
  private dir: string | undefined;

  /** Where notes go; until set (a unit test writing files), writes keep no notes. */
  configure(home: string): void {
    const dir = path.join(home, "pending-writes");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.dir = dir;
  }

  /** Notes `tempPath` (absolute); the answer is handed to `end`. */
  begin(tempPath: string): string | undefined {
    if (!this.dir) return undefined;
    const note = path.join(this.dir, `${process.pid}.${randomBytes(6).toString("hex")}`);
    try {
      // Synchronous and unsynced: a kill leaves what was written in the page cache, and a write must
      // not wait a round trip of the thread pool for its bookkeeping.
      fs.writeFileSync(note, tempPath, { mode: 0o600 });
      return note;
    } catch {
      return undefined;
    }
  }

  end(note: string | undefined): void {
    if (note) fs.rmSync(note, { force: true });
  }

  /**
   * Removes the temporaries that dead processes noted, and their notes. Notes of live processes (another
   * VS Code window sharing the home, or this process) are writes under way and stay.
   */
  sweep(): { removed: string[] } {
    const removed: string[] = [];
    if (!this.dir) return { removed };
    for (const name of fs.readdirSync(this.dir)) {
      const pid = Number(name.split(".")[0]);
      if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
      const note = path.join(this.dir, name);
      let tempPath = "";
      try {
        tempPath = fs.readFileSync(note, "utf8");
      } catch {
        // Unreadable: only the note goes.
      }
      // Only what Parley names its temporaries is ever removed, whatever a note says.
      if (path.isAbsolute(tempPath) && tempPath.endsWith(TEMP_SUFFIX) && removeFile(tempPath)) removed.push(tempPath);
      fs.rmSync(note, { force: true });
    }
    return { removed };
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeFile(file: string): boolean {
  try {
    // lstat: a temporary is a plain file; a link or folder by that name is not ours.
    if (!fs.lstatSync(file).isFile()) return false;
    fs.rmSync(file);
    return true;
  } catch {
    return false;
  }
}

/** One journal per process: every atomic write notes its temporary here. */
export const tempJournal = new TempJournal();
