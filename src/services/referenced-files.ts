// Files referenced with @ in a message: read from inside the project only. `..`, absolute paths and
// symlinks that lead out of the project are refused, so a message can never pull in ~/.ssh.
import fs from "node:fs/promises";
import path from "node:path";
import { invalid } from "../core/app-error";

export const MAX_REFERENCED_FILE_BYTES = 512 * 1024;

export type ReferencedFile = { path: string; content: string };

/** Normalises a project-relative path, or says why it is refused. Pure. */
export function checkRelativePath(relPath: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (relPath.includes("\0")) return { ok: false, reason: "contains a NUL byte" };
  if (path.isAbsolute(relPath) || /^[a-zA-Z]:[\\/]/.test(relPath)) return { ok: false, reason: "must be relative to the project" };
  const normalised = path.posix.normalize(relPath.replaceAll("\\", "/"));
  if (normalised === ".." || normalised.startsWith("../")) return { ok: false, reason: "leads out of the project" };
  if (normalised === "." || normalised === "") return { ok: false, reason: "names no file" };
  return { ok: true, path: normalised };
}

function inside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

export async function readReferencedFiles(projectDir: string, relPaths: string[]): Promise<ReferencedFile[]> {
  if (relPaths.length === 0) return [];
  const root = await fs.realpath(projectDir);
  const files: ReferencedFile[] = [];
  for (const relPath of [...new Set(relPaths)]) {
    const checked = checkRelativePath(relPath);
    if (!checked.ok) throw invalid(`referenced path "${relPath}" ${checked.reason}`);
    let real: string;
    try {
      real = await fs.realpath(path.join(root, checked.path));
    } catch {
      throw invalid(`referenced path "${checked.path}" does not exist in the project`);
    }
    if (!inside(root, real)) throw invalid(`referenced path "${checked.path}" leads out of the project`);
    const stat = await fs.stat(real);
    if (!stat.isFile()) throw invalid(`referenced path "${checked.path}" is not a file`);
    if (stat.size > MAX_REFERENCED_FILE_BYTES) throw invalid(`referenced file "${checked.path}" is larger than ${MAX_REFERENCED_FILE_BYTES / 1024} KB`);
    const bytes = await fs.readFile(real);
    if (bytes.includes(0)) throw invalid(`referenced file "${checked.path}" is not a text file`);
    files.push({ path: checked.path, content: bytes.toString("utf8") });
  }
  return files;
}

/** How an injected file reads to the model (role user, before the message that referenced it). */
export function fileMessageText(file: ReferencedFile): string {
  const fence = file.content.includes("```") ? "````" : "```";
  return `File: ${file.path}\n${fence}\n${file.content}\n${fence}`;
}
