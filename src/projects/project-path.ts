// Project-relative paths: the one check every reader and writer of project files uses, so a message,
// a tool call or a model can never reach outside the project (`..`, absolute paths, drive letters, NUL).
// Pure: symlinks are resolved by the caller (src/tools/project-files.ts), which then asks `isInside`.
import path from "node:path";

/** Normalises a project-relative path, or says why it is refused. */
export function checkRelativePath(relPath: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (relPath.includes("\0")) return { ok: false, reason: "contains a NUL byte" };
  if (path.isAbsolute(relPath) || /^[a-zA-Z]:[\\/]/.test(relPath))
    return { ok: false, reason: "must be relative to the project" };
  const normalised = path.posix.normalize(relPath.replaceAll("\\", "/"));
  if (normalised === ".." || normalised.startsWith("../")) return { ok: false, reason: "leads out of the project" };
  if (normalised === "." || normalised === "" || normalised === "./") return { ok: false, reason: "names no file" };
  return { ok: true, path: normalised.replace(/\/+$/, "") };
}

/** True when `candidate` (absolute, resolved) is `root` itself or below it. */
export function isInsideOrRoot(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return !relative.startsWith("..") && !path.isAbsolute(relative);
}

/** True when `candidate` (absolute, resolved) is strictly below `root`. */
export function isInside(root: string, candidate: string): boolean {
  return isInsideOrRoot(root, candidate) && path.relative(root, candidate) !== "";
}

/**
 * Whether a tool may write `relPath` (normalised, project-relative): never the project's own settings
 * (`.app.json`, which holds its tool gates) nor anything in `.git/` (hooks would run outside Parley).
 */
export function writeRefusal(relPath: string): string | undefined {
  const parts = relPath.split("/");
  if (parts.some((part) => part.toLowerCase() === ".git")) return "Parley never writes inside .git/";
  if (parts.length === 1 && parts[0]!.toLowerCase() === ".app.json")
    return "Parley never lets a tool write .app.json (it holds the project's tool gates)";
  return undefined;
}

/** Folders where package managers hard-link files from their stores (pnpm, uv, yarn): links there are expected. */
const DEPENDENCY_FOLDERS = new Set(["node_modules", ".venv", "venv", ".yarn"]);

/** Whether `relPath` lies in a dependency folder, where files with several hard links are normal. */
export function isDependencyPath(relPath: string): boolean {
  return relPath.split("/").some((part) => DEPENDENCY_FOLDERS.has(part));
}

/**
 * Why a file with other hard links is refused: a hard link is the same file as one elsewhere, which may
 * lie outside the project (a key, a token), and no path check can see where.
 */
export function hardLinkRefusal(relPath: string): string {
  return `"${relPath}" has other hard links, which may be outside the project, so Parley does not open it; copy it (cp) to work on it`;
}
