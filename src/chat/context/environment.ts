// The environment system message (contract 7.3, settings `chat.environment`): where the model works.
// It names the project folder, the OS and shell, the date (the day only, so the request's prefix stays
// byte-stable, and cacheable, all day) and the git branch. Every peer sends this; without it a model
// guesses paths and commands for the wrong system.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export type Environment = {
  projectDir: string;
  platform: string;
  shell: string;
  /** YYYY-MM-DD, local time. */
  day: string;
  branch?: string;
};

export function environmentText(env: Environment): string {
  const lines = [
    "Environment:",
    `- Project folder: ${env.projectDir}`,
    `- Operating system: ${env.platform}`,
    `- Shell: ${env.shell}`,
    `- Today's date: ${env.day}`,
  ];
  if (env.branch) lines.push(`- Git branch: ${env.branch}`);
  return lines.join("\n");
}

export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The system and the shell do not change while Parley runs: worked out once, not on every turn. */
let system: { platform: string; shell: string } | undefined;

function systemNames(): { platform: string; shell: string } {
  const names: Record<string, string> = { linux: "Linux", darwin: "macOS", win32: "Windows" };
  return (system ??= {
    platform: `${names[process.platform] ?? process.platform} (${os.release()}, ${process.arch})`,
    shell:
      process.platform === "win32"
        ? path.basename(process.env.ComSpec ?? "cmd.exe")
        : path.basename(process.env.SHELL || "/bin/sh"),
  });
}

/** Longer than any `.git` pointer file or HEAD git writes: anything bigger is not one. */
const MAX_GIT_FILE_BYTES = 4096;

/**
 * A small regular file's text, read synchronously: a turn reads these on its way to the gateway,
 * where a round trip through the thread pool per call (stat, open, read, close) cost more than the
 * reads. Opened without blocking and checked to be a file, so a FIFO or device planted where git
 * keeps HEAD cannot stall the server.
 */
function smallFileText(file: string): string | undefined {
  // Most folders have no `.git` file: a stat that finds nothing throws nothing (an error object is
  // costly to make), where an open would.
  const stat = statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile() || stat.size > MAX_GIT_FILE_BYTES) return undefined;
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_GIT_FILE_BYTES) return undefined;
    const buffer = Buffer.alloc(stat.size);
    const length = readSync(fd, buffer, 0, stat.size, 0);
    return buffer.toString("utf8", 0, length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The checked-out branch, read from `.git/HEAD` (a worktree's `.git` file points at its own HEAD):
 * no process is started for it. Undefined outside a repository or on a detached HEAD.
 */
export function gitBranch(projectDir: string): string | undefined {
  const dotGit = path.join(projectDir, ".git");
  // A `.git` file is a worktree's pointer to its git folder; a `.git` folder cannot be opened as a file.
  const pointer = /^gitdir:\s*(.+)$/m.exec(smallFileText(dotGit) ?? "");
  const gitDir = pointer ? path.resolve(projectDir, pointer[1]!.trim()) : dotGit;
  const head = smallFileText(path.join(gitDir, "HEAD"))?.trim();
  return head === undefined ? undefined : /^ref:\s*refs\/heads\/(.+)$/.exec(head)?.[1];
}

export function currentEnvironment(projectDir: string, now = new Date()): Environment {
  const branch = gitBranch(projectDir);
  return {
    projectDir,
    ...systemNames(),
    day: localDay(now),
    ...(branch ? { branch } : {}),
  };
}
