// Crash-safe file replacement: write a temporary sibling, fsync it, rename over the target, fsync the folder.
// A reader (or a process killed mid-write) sees the old file or the new one, never a torn one.
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";

export const TEMP_SUFFIX = ".parley-tmp";

export async function writeFileAtomic(file: string, data: string, mode?: number): Promise<void> {
  const dir = path.dirname(file);
  const temp = path.join(dir, `${path.basename(file)}.${randomBytes(6).toString("hex")}${TEMP_SUFFIX}`);
  const fileMode = mode ?? (await existingMode(file)) ?? 0o644;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(temp, "wx", fileMode);
    await handle.writeFile(data, "utf8");
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => {});
    await fs.rm(temp, { force: true }).catch(() => {});
    throw error;
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
