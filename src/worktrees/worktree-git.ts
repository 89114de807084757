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
 * The worktree's files as a commit: HEAD itself when nothing is uncommitted, else a commit on HEAD made
 * through a copy of its index, so neither its index nor its branch moves (a check changes nothing).
 */
export async function snapshotCommit(
  worktree: string,
): Promise<{ commit: string; head: string; uncommitted: boolean }> {
  const [gitDir, head] = await Promise.all([
    gitText(worktree, ["rev-parse", "--absolute-git-dir"]),
    gitText(worktree, ["rev-parse", "HEAD"]),
  ]);
  const index = path.join(os.tmpdir(), `parley-index-${randomBytes(6).toString("hex")}`);
  try {
    // The real index's file stamps let `add` skip unchanged files (a 100k-file tree in milliseconds).
    await fs.copyFile(path.join(gitDir, "index"), index).catch(() => undefined);
    const env = { GIT_INDEX_FILE: index };
    await git(worktree, ["add", "-A"], { env });
    const [tree, headTree] = await Promise.all([
      gitText(worktree, ["write-tree"], { env }),
      gitText(worktree, ["rev-parse", "HEAD^{tree}"]),
    ]);
    if (tree === headTree) return { commit: head, head, uncommitted: false };
    const commit = await gitText(worktree, ["commit-tree", tree, "-p", head, "-m", "The chat's uncommitted work"], {
      env: await commitIdentity(worktree),
    });
    return { commit, head, uncommitted: true };
  } finally {
    await fs.rm(index, { force: true });
  }
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

/** A file's content at a commit, or null when it is not there. */
export async function fileAt(top: string, commit: string, file: string): Promise<string | null> {
  const result = await git(top, ["cat-file", "blob", `${commit}:${file}`], { okCodes: [128] });
  return result.exitCode === 0 ? result.stdout : null;
}
