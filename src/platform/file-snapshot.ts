// Re-reads a small file only when it changed on disk (inode, size or mtime), so hot paths such as
// a chat turn do not parse the same JSON again and again. Atomic writes change the inode.
import { statSync } from "node:fs";
import fs from "node:fs/promises";

type Snapshot<T> = { ino: number; size: number; mtimeNs: bigint; value: T };

export class FileSnapshots<T> {
  private readonly cache = new Map<string, Snapshot<T>>();

  /** `parse` runs only when the file changed; `undefined` from stat means the file is missing. */
  async read(file: string, parse: (text: string) => T): Promise<T | undefined> {
    // The check is a synchronous stat: a few microseconds, where a stat through the thread pool took
    // a round trip (and a thrown error for a missing file) on every chat turn's way to the gateway.
    const stat = statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!stat) {
      this.cache.delete(file);
      return undefined;
    }
    const cached = this.cache.get(file);
    if (
      cached &&
      cached.ino === Number(stat.ino) &&
      cached.size === Number(stat.size) &&
      cached.mtimeNs === stat.mtimeNs
    )
      return cached.value;
    const value = parse(await fs.readFile(file, "utf8"));
    this.cache.set(file, { ino: Number(stat.ino), size: Number(stat.size), mtimeNs: stat.mtimeNs, value });
    return value;
  }

  forget(file: string): void {
    this.cache.delete(file);
  }
}
