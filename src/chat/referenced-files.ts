// Files referenced with @ in a message: read from inside the project only. `..`, absolute paths and
// symlinks that lead out of the project are refused, so a message can never pull in ~/.ssh.
import { realpathSync, statSync, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { invalid } from "../platform/app-error";
import { checkRelativePath, isInside } from "../projects/project-path";
import { FileSnapshots } from "../platform/file-snapshot";

export { checkRelativePath };

export const MAX_REFERENCED_FILE_BYTES = 512 * 1024;

/** A project file, or (with `resource`) an MCP server's resource, `path` then being its name. */
export type ReferencedFile = { path: string; content: string; resource?: { serverId: string; uri: string } };

type FileRead = { ok: true; file: ReferencedFile } | { ok: false; reason: string };

/**
 * Agent files and skills are read on every turn: their text is kept until the file changes on disk,
 * so a turn pays a stat for each rather than the thread pool's round trips of a read. Only files up to
 * KEPT_TEXT_BYTES are kept: a repository's fifty half-megabyte skills are read, not held in memory.
 */
const instructionTexts = new FileSnapshots<string>();
const KEPT_TEXT_BYTES = 64 * 1024;

/**
 * One file, checked and read. The checks (realpath, stat) are synchronous: each takes microseconds,
 * where a round trip through the thread pool per check stood between the user's Enter and the first
 * token on every turn (agent files are read this way each turn). The content is read asynchronously,
 * or (`kept`) taken from what was read before while the file has not changed.
 */
async function readInside(root: string, relPath: string, kept?: FileSnapshots<string>): Promise<FileRead> {
  const checked = checkRelativePath(relPath);
  if (!checked.ok) return { ok: false, reason: `referenced path "${relPath}" ${checked.reason}` };
  const missing: FileRead = { ok: false, reason: `referenced path "${checked.path}" does not exist in the project` };
  const joined = path.join(root, checked.path);
  let real: string;
  let stat: Stats;
  try {
    // A missing file is the common case for agent files: answered without a thrown system error.
    if (!statSync(joined, { throwIfNoEntry: false })) return missing;
    real = realpathSync.native(joined);
    if (!isInside(root, real))
      return { ok: false, reason: `referenced path "${checked.path}" leads out of the project` };
    stat = statSync(real);
  } catch {
    // A symlink loop, a name too long, a folder without permission: nothing there to read.
    return missing;
  }
  if (!stat.isFile()) return { ok: false, reason: `referenced path "${checked.path}" is not a file` };
  if (stat.size > MAX_REFERENCED_FILE_BYTES)
    return {
      ok: false,
      reason: `referenced file "${checked.path}" is larger than ${MAX_REFERENCED_FILE_BYTES / 1024} KB`,
    };
  const content = await (
    kept && stat.size <= KEPT_TEXT_BYTES
      ? kept.read(real, (text) => text)
      : fs.readFile(real).then((bytes) => bytes.toString("utf8"))
  ).catch(() => undefined);
  if (content === undefined) return { ok: false, reason: `referenced file "${checked.path}" cannot be read` };
  // UTF-8 keeps a NUL byte a NUL character: the same test as on the bytes.
  if (content.includes("\0")) return { ok: false, reason: `referenced file "${checked.path}" is not a text file` };
  return { ok: true, file: { path: checked.path, content } };
}

/** The paths' files, each once; the first that cannot be read is a 400 naming it. */
export async function readReferencedFiles(projectDir: string, relPaths: string[]): Promise<ReferencedFile[]> {
  if (relPaths.length === 0) return [];
  const root = realpathSync.native(projectDir);
  const files: ReferencedFile[] = [];
  for (const relPath of new Set(relPaths)) {
    const read = await readInside(root, relPath);
    if (!read.ok) throw invalid(read.reason);
    files.push(read.file);
  }
  return files;
}

/** The paths' files that exist and pass the same checks, read at once; the others are skipped. */
export async function readExistingFiles(projectDir: string, relPaths: readonly string[]): Promise<ReferencedFile[]> {
  if (relPaths.length === 0) return [];
  const root = realpathSync.native(projectDir);
  const reads = await Promise.all(
    [...new Set(relPaths)].map((relPath) =>
      readInside(root, relPath, instructionTexts).catch((): FileRead => ({ ok: false, reason: "unreadable" })),
    ),
  );
  return reads.flatMap((read) => (read.ok ? [read.file] : []));
}

/** How an injected file reads to the model (role user, before the message that referenced it). */
export function fileMessageText(file: ReferencedFile): string {
  const fence = file.content.includes("```") ? "````" : "```";
  const title = file.resource
    ? `Resource: ${file.path} (${file.resource.uri}, from the MCP server ${file.resource.serverId})`
    : `File: ${file.path}`;
  return `${title}\n${fence}\n${file.content}\n${fence}`;
}
