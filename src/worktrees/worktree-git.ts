// The git questions and steps a worktree chat needs, each one or a few git calls. Nothing here knows
// chats or HTTP: the service (worktree-service.ts) decides what to refuse and in what order.
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { WorktreeChange } from "../shared/worktrees";
import { commitIdentity, git, gitText } from "./git";

/** The repository holding `dir`: its top folder (real path), or undefined when `dir` is in none. */
export async function repositoryTop(dir: string): Promise<string | undefined> {
  const result = await git(dir, ["rev-parse", "--show-toplevel"], { okCodes: [128] }).catch(() => undefined);
  if (!result || result.exitCode !== 0) return undefined;
  return fs.realpath(result.stdout.trim());
}

/** The commit HEAD names, or undefined in a repository without commits. */
export async function headCommit(top: string): Promise<string | undefined> {
  const result = await git(top, ["rev-parse", "--verify", "-q", "HEAD^{commit}"], { okCodes: [1, 128] });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** The branch checked out in `dir`, or undefined when its HEAD is detached. */
export async function currentBranch(dir: string): Promise<string | undefined> {
  const result = await git(dir, ["symbolic-ref", "-q", "--short", "HEAD"], { okCodes: [1] });
  return result.exitCode === 0 ? result.stdout.trim() : undefined;
}

/** Every local branch's name. */
export async function localBranches(top: string): Promise<Set<string>> {
  const out = await gitText(top, ["for-each-ref", "--format=%(refname:short)", "refs/heads/"]);
  return new Set(out ? out.split("\n") : []);
}

/** Whether git accepts `name` as a branch name. */
export async function isValidBranchName(top: string, name: string): Promise<boolean> {
  const result = await git(top, ["check-ref-format", "--branch", name], { okCodes: [1, 128] });
  return result.exitCode === 0;
}

/** Paths (relative to the top) with uncommitted changes, untracked files included. */
export async function uncommittedPaths(top: string): Promise<string[]> {
  const out = (await git(top, ["status", "--porcelain=v1", "-z", "--untracked-files=all"])).stdout;
  const entries = out.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (entry.length < 4) continue;
    paths.push(entry.slice(3));
    // A rename or copy is followed by the path it came from, which counts too.
    if (entry[0] === "R" || entry[0] === "C") paths.push(entries[++i] ?? "");
  }
  return paths.filter(Boolean);
}

/** Whether the tracked files of `top` have uncommitted changes (untracked files left aside: quick). */
export async function hasTrackedChanges(top: string): Promise<boolean> {
  const out = (await git(top, ["status", "--porcelain=v1", "--untracked-files=no"])).stdout;
  return out.trim() !== "";
}

/** Creates the worktree at `folder` on a new branch `branch` starting at `commit`. */
export async function addWorktree(top: string, folder: string, branch: string, commit: string): Promise<void> {
  await git(top, ["worktree", "add", "-q", "-b", branch, folder, commit]);
}

/**
 * The environment that holds git to a worktree's own git folders. Found through the worktree's `.git`
 * file and the `commondir` file of its folder in the repository, both of which the chat's commands may
 * rewrite, git would take the config (and so the filters it runs) of a git folder of the chat's making,
 * and run them here, outside the sandbox. git names a worktree's folder in the repository after the
 * worktree's own folder (Parley's names are unique: see folderNameOf).
 */
export function pinnedGit(commonDir: string, worktree: string): Record<string, string> {
  return {
    GIT_DIR: path.join(commonDir, "worktrees", path.basename(worktree)),
    GIT_COMMON_DIR: commonDir,
    GIT_WORK_TREE: worktree,
  };
}

/**
 * The folders of the repository's git folder a worktree chat's sandboxed commands may write, so git
 * commits on its branch: the objects, the worktree's own folder there (HEAD, index, logs) and the
 * folders of its branch's ref and reflog (`refs/heads/parley/` for `parley/<slug>`, shared with the
 * other chats' branches). A branch without a folder part gets none: its ref sits beside the user's
 * branches, and a commit from the sandbox then fails (Parley still merges it). Everything else, the
 * user's branches, HEAD and index among it, stays read-only. Pure.
 */
export function gitShare(commonDir: string, worktree: string, branch: string): string[] {
  const folder = branch.includes("/") ? branch.slice(0, branch.lastIndexOf("/")) : undefined;
  return [
    path.join(commonDir, "objects"),
    path.join(commonDir, "worktrees", path.basename(worktree)),
    ...(folder === undefined
      ? []
      : [path.join(commonDir, "refs", "heads", folder), path.join(commonDir, "logs", "refs", "heads", folder)]),
  ];
}

/**
 * The worktree's files as a commit: HEAD itself when nothing is uncommitted, else a commit on HEAD made
 * through a copy of its index, so neither its index nor its branch moves (a check changes nothing).
 * `pinned` is the worktree's pinnedGit.
 */
export async function snapshotCommit(
  worktree: string,
  pinned: Record<string, string>,
): Promise<{ commit: string; head: string; uncommitted: boolean }> {
  const head = await gitText(worktree, ["rev-parse", "HEAD"], { env: pinned });
  const index = path.join(os.tmpdir(), `parley-index-${randomBytes(6).toString("hex")}`);
  try {
    // The real index's file stamps let `add` skip unchanged files (a 100k-file tree in milliseconds).
    await fs.copyFile(path.join(pinned.GIT_DIR!, "index"), index).catch(() => undefined);
    const env = { ...pinned, GIT_INDEX_FILE: index };
    await git(worktree, ["add", "-A"], { env });
    const [tree, headTree] = await Promise.all([
      gitText(worktree, ["write-tree"], { env }),
      gitText(worktree, ["rev-parse", "HEAD^{tree}"], { env: pinned }),
    ]);
    if (tree === headTree) return { commit: head, head, uncommitted: false };
    const commit = await gitText(worktree, ["commit-tree", tree, "-p", head, "-m", "The chat's uncommitted work"], {
      env: { ...pinned, ...(await commitIdentity(worktree, pinned)) },
    });
    return { commit, head, uncommitted: true };
  } finally {
    await fs.rm(index, { force: true });
  }
}

/**
 * Of `files` (relative to `top`), the ones that are in `top`'s working tree (or whose parent folder is
 * a file there) and that git ignores: `git merge` writes over ignored files without a word (a `.env`
 * the chat's branch adds would replace the user's), and `git status` does not list them.
 */
export async function ignoredInTheWay(top: string, files: readonly string[]): Promise<string[]> {
  const present = new Set<string>();
  for (const file of files) {
    const parts = file.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const part = parts.slice(0, i).join("/");
      const stat = await fs.lstat(path.join(top, part)).catch(() => undefined);
      if (!stat) break;
      if (i === parts.length || !stat.isDirectory()) {
        present.add(part);
        break;
      }
    }
  }
  if (present.size === 0) return [];
  const result = await git(top, ["check-ignore", "-z", "--stdin"], {
    okCodes: [1],
    input: [...present].join("\0") + "\0",
  });
  return result.stdout.split("\0").filter(Boolean);
}

/** The commit both sides last shared. */
export function mergeBase(top: string, a: string, b: string): Promise<string> {
  return gitText(top, ["merge-base", a, b]);
}

/** Files changed from `from` to `to`, with added and removed line counts (null for a binary file). */
export async function changedFiles(top: string, from: string, to: string): Promise<WorktreeChange[]> {
  const out = (await git(top, ["diff", "--numstat", "-z", "--no-renames", from, to])).stdout;
  const changes: WorktreeChange[] = [];
  for (const entry of out.split("\0")) {
    const match = /^(-|\d+)\t(-|\d+)\t(.+)$/s.exec(entry);
    if (!match) continue;
    changes.push({
      path: match[3]!,
      added: match[1] === "-" ? null : Number(match[1]),
      removed: match[2] === "-" ? null : Number(match[2]),
    });
  }
  return changes;
}

/** Commits in `ours` that `base` lacks (ahead) and the reverse (behind). */
export async function aheadBehind(top: string, base: string, ours: string): Promise<{ ahead: number; behind: number }> {
  const [behind, ahead] = (await gitText(top, ["rev-list", "--left-right", "--count", `${base}...${ours}`]))
    .split(/\s+/)
    .map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

/**
 * The files a merge of `ours` into `base` would conflict on, computed without touching any working
 * tree or index (`git merge-tree --write-tree`, git 2.38 or later); empty when it merges cleanly.
 */
export async function mergeConflicts(top: string, base: string, ours: string): Promise<string[]> {
  const result = await git(top, ["merge-tree", "--write-tree", "--name-only", "--no-messages", base, ours], {
    okCodes: [1],
  });
  if (result.exitCode === 0) return [];
  return [...new Set(result.stdout.split("\n").slice(1).filter(Boolean))];
}

/**
 * A file's content at a commit: null when it is not there (or is no file: a submodule's commit), `tooLarge`
 * past `maxBytes` (read whole, a file past git's output buffer would fail the call).
 */
export async function fileAt(
  top: string,
  commit: string,
  file: string,
  maxBytes: number,
): Promise<string | null | { tooLarge: true }> {
  const object = `${commit}:${file}`;
  const type = await git(top, ["cat-file", "-t", object], { okCodes: [128] });
  if (type.exitCode !== 0 || type.stdout.trim() !== "blob") return null;
  if (Number(await gitText(top, ["cat-file", "-s", object])) > maxBytes) return { tooLarge: true };
  return (await git(top, ["cat-file", "blob", object])).stdout;
}
