// Runs git for Parley's own work on worktrees: an argv array (never a shell string), an environment
// with none of Parley's secrets, and nothing the repository configures that would run a program
// (hooks, an fsmonitor command) or ask for input. The repository is the user's; it may be hostile.
import { execFile } from "node:child_process";

/** git failed: its exit code and what it printed on stderr. */
export class GitError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly stdout: string,
  ) {
    super(
      `git ${args[0] ?? ""} failed${exitCode === null ? "" : ` (exit ${exitCode})`}: ${firstLines(stderr || stdout)}`,
    );
  }
}

function firstLines(text: string): string {
  return text.trim().split("\n").slice(0, 4).join(" / ").slice(0, 500);
}

/** What git sees of the environment: where programs are, the locale, the home (for the user's identity). */
const PASSED = ["PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP", "USERPROFILE"];

/** Commits Parley makes when the user has no identity configured (a fresh CI machine, a container). */
const FALLBACK_IDENTITY = {
  GIT_AUTHOR_NAME: "Parley",
  GIT_AUTHOR_EMAIL: "parley@localhost",
  GIT_COMMITTER_NAME: "Parley",
  GIT_COMMITTER_EMAIL: "parley@localhost",
};

/** Settings given on every call, over the repository's own (`-c` wins over `.git/config`). */
const SAFE_CONFIG = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.quotePath=false",
  "-c",
  "advice.detachedHead=false",
  "-c",
  "gc.auto=0",
];

export type GitOptions = {
  /** Extra environment (GIT_INDEX_FILE, the fallback identity). */
  env?: Record<string, string>;
  /** Exit codes that are answers rather than failures (`merge-tree` says 1 for a conflict). */
  okCodes?: readonly number[];
  timeoutMs?: number;
  /** What git reads on its standard input (`--stdin` commands). */
  input?: string;
};

export type GitResult = { stdout: string; exitCode: number };

function gitEnv(extra: Record<string, string> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of PASSED) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return { ...env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", ...extra };
}

/** Runs `git <args>` in `cwd`; rejects with GitError unless it exits 0 (or with one of `okCodes`). */
export function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      [...SAFE_CONFIG, ...args],
      {
        cwd,
        env: gitEnv(options.env),
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 120_000,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout, exitCode: 0 });
        const code = typeof error.code === "number" ? error.code : null;
        if (code !== null && options.okCodes?.includes(code)) return resolve({ stdout, exitCode: code });
        reject(new GitError(args, code, stderr, stdout));
      },
    );
    // A git that exits without reading its input closes the pipe: that is no error of the call.
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.input);
  });
}

/** Trimmed standard output of a git call that must succeed. */
export async function gitText(cwd: string, args: readonly string[], options?: GitOptions): Promise<string> {
  return (await git(cwd, args, options)).stdout.trim();
}

const identities = new Map<string, Promise<Record<string, string>>>();

/**
 * The environment for a command that makes a commit: none when the user has an identity configured
 * (their commits are theirs), else Parley's, so a merge never fails on "Please tell me who you are".
 */
export function commitIdentity(cwd: string, env?: Record<string, string>): Promise<Record<string, string>> {
  let identity = identities.get(cwd);
  if (!identity) {
    identity = git(cwd, ["config", "user.email"], { okCodes: [1], ...(env ? { env } : {}) }).then(
      (result) => (result.stdout.trim() ? {} : FALLBACK_IDENTITY),
      () => FALLBACK_IDENTITY,
    );
    identities.set(cwd, identity);
  }
  return identity;
}
