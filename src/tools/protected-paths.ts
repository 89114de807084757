// Protected paths (contract 7.5): files whose content something runs later, outside any approval of
// Parley's: VS Code's tasks and settings, CI workflows, git hooks, shell start-up files, package
// manager settings, and package.json scripts. A `file` write or edit there asks the user even under an
// `allow` gate. `.git/` and `.app.json` are not here: no tool writes them at all (project-path.ts).
// Pure: the caller passes the path as the model gave it and as resolved (symlinks followed), and the
// file's bytes before and after the change.
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { ApprovalReason, ProtectedPathRule } from "../shared/approval-reasons";

/** Folders (as consecutive path segments, anywhere in the path) whose files are protected. */
const FOLDERS: readonly { segments: readonly string[]; rule: ProtectedPathRule }[] = [
  { segments: [".vscode"], rule: "editor" },
  { segments: [".github", "workflows"], rule: "ci" },
  // Local actions run inside the workflows that use them, with the same secrets.
  { segments: [".github", "actions"], rule: "ci" },
  { segments: [".husky"], rule: "git_hooks" },
];

/** File names protected wherever they are. */
const FILES: ReadonlyMap<string, ProtectedPathRule> = new Map([
  ...[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".cshrc",
    ".tcshrc",
    ".kshrc",
    "config.fish",
    // direnv runs it on entering the folder.
    ".envrc",
  ].map((name) => [name, "shell_startup"] as const),
  // `script-shell`, `node-options` and `yarnPath` there decide what runs for every script and install.
  ...[".npmrc", ".yarnrc", ".yarnrc.yml"].map((name) => [name, "package_manager"] as const),
]);

/**
 * A path's segments, lowercased, as a case-insensitive file system (macOS, Windows) would find them:
 * `\` as a separator, `.` and `..` resolved, and what Windows drops from a name at the end (dots,
 * spaces) or reads as a stream (`name:stream`, `name::$DATA`) removed. Stricter than a case-sensitive
 * system needs, which only makes a write ask where it could have gone ahead.
 */
function segments(relPath: string): string[] {
  const normalised = path.posix.normalize(relPath.replaceAll("\\", "/"));
  return normalised
    .split("/")
    .filter((part) => part !== "" && part !== ".")
    .map(windowsName);
}

/** The name Windows opens for `part`, lowercased: no stream suffix, no trailing dots or spaces. */
function windowsName(part: string): string {
  const name = part.toLowerCase().split(":")[0]!;
  const trimmed = name.replace(/[. ]+$/, "");
  return trimmed === "" ? name : trimmed;
}

function containsRun(haystack: readonly string[], needle: readonly string[]): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++)
    if (needle.every((part, j) => haystack[i + j] === part)) return true;
  return false;
}

/** The rule a path falls under by its name alone (package.json needs its content: see below). */
export function protectedPathRule(relPath: string): ProtectedPathRule | undefined {
  const parts = segments(relPath);
  const name = parts.at(-1);
  if (!name) return undefined;
  const folders = parts.slice(0, -1);
  return FOLDERS.find((folder) => containsRun(folders, folder.segments))?.rule ?? FILES.get(name);
}

/** `scripts` of a package.json text; undefined when there are none or the text is not JSON (npm would not run it). */
function scriptsOf(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as { scripts?: unknown }).scripts : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a package.json change adds, removes or changes any of its `scripts` (npm reads it with JSON.parse too). */
export function packageScriptsChanged(before: string | null, after: string): boolean {
  return !isDeepStrictEqual(scriptsOf(before), scriptsOf(after));
}

export type PlannedChange = {
  /** The path as the call gave it. */
  given: string;
  /** The same, resolved inside the project (symlinks followed), project-relative. */
  rel: string;
  before: Buffer | null;
  after: Buffer;
};

/**
 * Why this write must ask whatever the gate: the path as given or as resolved falls under a rule (a
 * link named harmlessly can lead into .vscode/), or it is a package.json whose scripts change.
 */
export function protectedWrite(change: PlannedChange): ApprovalReason | undefined {
  const reason = (rule: ProtectedPathRule): ApprovalReason => ({ kind: "protected_path", path: change.rel, rule });
  const rule = protectedPathRule(change.rel) ?? protectedPathRule(change.given);
  if (rule) return reason(rule);
  const isPackage = [change.rel, change.given].some((p) => segments(p).at(-1) === "package.json");
  if (isPackage && packageScriptsChanged(change.before?.toString("utf8") ?? null, change.after.toString("utf8")))
    return reason("package_scripts");
  return undefined;
}
