// Files referenced with @ in a message: read from inside the project only. `..`, absolute paths and
// symlinks that lead out of the project are refused, so a message can never pull in ~/.ssh.
import fs from "node:fs/promises";
import path from "node:path";
import { invalid } from "../core/app-error";
import { checkRelativePath, isInside } from "../core/project-path";

export { checkRelativePath };

export const MAX_REFERENCED_FILE_BYTES = 512 * 1024;

export type ReferencedFile = { path: string; content: string };

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
    if (!isInside(root, real)) throw invalid(`referenced path "${checked.path}" leads out of the project`);
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
