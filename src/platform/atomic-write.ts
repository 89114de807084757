// Crash-safe file replacement: write a temporary sibling, fsync it, rename over the target, fsync the folder.
// A reader (or a process killed mid-write) sees the old file or the new one, never a torn one, and the
// temporary a killed write leaves behind is named in the temp journal, so the next start removes it.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { TEMP_SUFFIX, tempJournal } from "./temp-journal";

export { TEMP_SUFFIX };

export async function writeFileAtomic(file: string, data: string | Buffer, mode?: number): Promise<void> {
  const fileMode = mode ?? (await existingMode(file)) ?? 0o644;
  await writeAtomicIn(path.dirname(file), path.basename(file), data, fileMode);
}

/**
 * Writes `name` in `dir` through a temporary of its own in `dir`. `dir` may be a path through an open
 * folder (`/proc/self/fd/N`), with `realDir` the folder's real path for the temp journal: the temporary
 * is created without following a link, and the rename never follows one at the last component, so
 * nothing but `dir/name` is ever written.
 */
export async function writeAtomicIn(
  dir: string,
  name: string,
  data: string | Buffer,
  mode: number,
  realDir = dir,
): Promise<void> {
  const tempName = `${name}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`;
  const temp = path.join(dir, tempName);
  const entry = tempJournal.begin(path.join(realDir, tempName));
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, path.join(dir, name));
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.rm(temp, { force: true }).catch(() => {});
    throw error;
  } finally {
    tempJournal.end(entry);
  }
  await fsyncDir(dir);
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).mode & 0o777;
  } catch {
    return undefined;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r").catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself has already happened.
  } finally {
    await handle.close();
  }
}

/** Removes temporaries that a killed writer left beside `file` (older than `minAgeMs`). */
export async function removeStaleTemps(file: string, minAgeMs = 60_000): Promise<void> {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.`;
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const cutoff = Date.now() - minAgeMs;
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) continue;
    const full = path.join(dir, name);
    const stat = await fs.stat(full).catch(() => undefined);
    if (stat && stat.mtimeMs < cutoff) await fs.rm(full, { force: true }).catch(() => {});
  }
}
