// Real git for tests of worktree chats: a repository with a first commit, git calls with a fixed
// identity, and a digest of a working tree to prove that nothing in it changed.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const IDENTITY = {
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
};

/** `git <args>` in `cwd`, its trimmed output; throws on a non-zero exit. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...IDENTITY },
  }).trim();
}

/** Whether `git <args>` exits 0. */
export function gitOk(cwd: string, ...args: string[]): boolean {
  try {
    git(cwd, ...args);
    return true;
  } catch {
    return false;
  }
}

/**
 * A repository on `main` with one commit holding `files` (`shared.txt` of three lines by default) and
 * a `.gitignore` for Parley's project settings file, so `git status` shows only what a test did.
 */
export function initRepo(dir: string, files: Record<string, string> = { "shared.txt": "one\ntwo\nthree\n" }): void {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(dir, ".gitignore"), ".app.json\n");
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "first");
}

/** Commits `text` to `file` on the checked-out branch of `dir`; the new commit. */
export function commitFile(dir: string, file: string, text: string, message = `change ${file}`): string {
  fs.writeFileSync(path.join(dir, file), text);
  git(dir, "add", "--", file);
  git(dir, "commit", "-q", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

/** Every file under `dir` but `.git` (a folder or a worktree's file) and `.app.json`, with a hash of its content. */
export function treeDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      const relative = path.relative(dir, full);
      if (relative === ".git" || relative === ".app.json") continue;
      if (entry.isDirectory()) walk(full);
      else out[relative] = createHash("sha256").update(fs.readFileSync(full)).digest("hex").slice(0, 16);
    }
  };
  walk(dir);
  return out;
}

/** What a repository's state is made of, to compare before and after a refused step. */
export function repoState(dir: string): { head: string; status: string; tree: Record<string, string> } {
  return {
    head: git(dir, "rev-parse", "HEAD"),
    status: git(dir, "status", "--porcelain=v1", "--untracked-files=all"),
    tree: treeDigest(dir),
  };
}

/** Local branch names of the repository at `dir`. */
export function branches(dir: string): string[] {
  const out = git(dir, "for-each-ref", "--format=%(refname:short)", "refs/heads/");
  return out ? out.split("\n") : [];
}
