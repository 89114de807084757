// Reads, writes and removals of one file inside a project that hold while a folder is swapped for a
// symlink mid-way (contract 7.2). The caller resolves the path first (links followed, checked inside the
// project); here, at the moment of writing, the folder is opened again from the project root one name
// at a time without following any link, and the file is reached through that open folder
// (`/proc/self/fd/N/name` on Linux). A swap after the check makes the operation fail; it can never land
// outside. A symlink at the last component is never followed either. Where `/proc/self/fd` does not
// exist (macOS), the folder is checked to be link-free just before the write, which narrows the race to
// that instant.
import { constants, existsSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { writeAtomicIn } from "../platform/atomic-write";

const PROC_FD = "/proc/self/fd";
const FOLDER_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The operation was refused: a link, a swapped folder, a folder where a file should be. */
export class ConfinementError extends Error {}

let procFd: boolean | undefined;
const hasProcFd = () => (procFd ??= existsSync(`${PROC_FD}/`));

type OpenFolder = { path: string; realPath: string; close(): Promise<void> };

const swapped = (rel: string) =>
  new ConfinementError(
    `a folder on the way to "${rel}" is a link or changed while Parley was writing; nothing was written`,
  );

/** Opens `root/parts…` without following a link anywhere below `root`; missing folders are made when `create`. */
async function openFolder(
  root: string,
  parts: string[],
  create: boolean,
  rel: string,
): Promise<OpenFolder | undefined> {
  const realPath = path.join(root, ...parts);
  if (!hasProcFd()) return openFolderByPath(root, realPath, create, rel);
  let handle = await fs.open(root, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    for (const part of parts) {
      const child = `${PROC_FD}/${handle.fd}/${part}`;
      let next: fs.FileHandle;
      try {
        next = await fs.open(child, FOLDER_FLAGS);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT" && !create) {
          await handle.close();
          return undefined;
        }
        if (code !== "ENOENT") throw code === "ENOTDIR" || code === "ELOOP" ? swapped(rel) : error;
        await fs.mkdir(child).catch((mkdirError: NodeJS.ErrnoException) => {
          if (mkdirError.code !== "EEXIST") throw mkdirError;
        });
        next = await fs.open(child, FOLDER_FLAGS).catch((again: NodeJS.ErrnoException) => {
          throw again.code === "ENOTDIR" || again.code === "ELOOP" ? swapped(rel) : again;
        });
      }
      await handle.close();
      handle = next;
    }
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
  const open = handle;
  return { path: `${PROC_FD}/${open.fd}`, realPath, close: () => open.close() };
}

async function openFolderByPath(
  root: string,
  realPath: string,
  create: boolean,
  rel: string,
): Promise<OpenFolder | undefined> {
  if (create) await fs.mkdir(realPath, { recursive: true });
  let resolved: string;
  try {
    resolved = await fs.realpath(realPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  if (resolved !== realPath || !(realPath === root || realPath.startsWith(`${root}${path.sep}`))) throw swapped(rel);
  return { path: realPath, realPath, close: async () => {} };
}

/** `rel` (project-relative, `/`-separated, already resolved and checked) as its folders and name. */
function split(rel: string): { parts: string[]; name: string } {
  const parts = rel.split("/");
  const name = parts.pop();
  if (!name || parts.some((p) => p === "" || p === "." || p === ".."))
    throw new ConfinementError(`"${rel}" is not a path inside the project`);
  return { parts, name };
}

export type ConfinedFile = { bytes: Buffer; links: number };

/**
 * The file's bytes and link count, or null when it does not exist. A link or a folder there is refused,
 * and so is a file over `maxBytes`.
 */
export async function readConfined(root: string, rel: string, maxBytes = Infinity): Promise<ConfinedFile | null> {
  const { parts, name } = split(rel);
  const folder = await openFolder(root, parts, false, rel);
  if (!folder) return null;
  try {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(
        `${folder.path}/${name}`,
        constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return null;
      if (code === "ELOOP") throw new ConfinementError(`"${rel}" is a symbolic link; Parley does not follow it here`);
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new ConfinementError(`"${rel}" is not a file`);
      if (stat.size > maxBytes)
        throw new ConfinementError(`"${rel}" is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
      return { bytes: await handle.readFile(), links: stat.nlink };
    } finally {
      await handle.close();
    }
  } finally {
    await folder.close();
  }
}

/** Replaces (or creates) the file atomically; folders on the way are made. A link at `rel` is refused, never followed. */
export async function writeConfined(root: string, rel: string, data: Buffer, mode?: number): Promise<void> {
  const { parts, name } = split(rel);
  const folder = (await openFolder(root, parts, true, rel))!;
  try {
    const stat = await fs.lstat(`${folder.path}/${name}`).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (stat?.isSymbolicLink())
      throw new ConfinementError(`"${rel}" is a symbolic link; Parley does not write through it`);
    if (stat && !stat.isFile()) throw new ConfinementError(`"${rel}" is not a file`);
    await writeAtomicIn(folder.path, name, data, mode ?? (stat ? stat.mode & 0o777 : 0o644), folder.realPath);
  } finally {
    await folder.close();
  }
}

/** Removes the file (a link there is removed as a link, never followed). Missing is fine. */
export async function removeConfined(root: string, rel: string): Promise<void> {
  const { parts, name } = split(rel);
  const folder = await openFolder(root, parts, false, rel);
  if (!folder) return;
  try {
    await fs.rm(`${folder.path}/${name}`, { force: true });
  } finally {
    await folder.close();
  }
}
