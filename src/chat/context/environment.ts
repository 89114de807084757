// The environment system message (contract 7.3, settings `chat.environment`): where the model works.
// It names the project folder, the OS and shell, the date (the day only, so the request's prefix stays
// byte-stable, and cacheable, all day) and the git branch. Every peer sends this; without it a model
// guesses paths and commands for the wrong system.
import { promises as fs } from "node:fs";
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

function platformName(): string {
  const names: Record<string, string> = { linux: "Linux", darwin: "macOS", win32: "Windows" };
  return `${names[process.platform] ?? process.platform} (${os.release()}, ${process.arch})`;
}

function shellName(): string {
  if (process.platform === "win32") return path.basename(process.env.ComSpec ?? "cmd.exe");
  return path.basename(process.env.SHELL || "/bin/sh");
}

/**
 * The checked-out branch, read from `.git/HEAD` (a worktree's `.git` file points at its own HEAD):
 * no process is started for it. Undefined outside a repository or on a detached HEAD.
 */
export async function gitBranch(projectDir: string): Promise<string | undefined> {
  const dotGit = path.join(projectDir, ".git");
  try {
    let gitDir = dotGit;
    const stat = await fs.stat(dotGit);
    if (stat.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(await fs.readFile(dotGit, "utf8"));
      if (!pointer) return undefined;
      gitDir = path.resolve(projectDir, pointer[1]!.trim());
    }
    const head = (await fs.readFile(path.join(gitDir, "HEAD"), "utf8")).trim();
    const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return ref?.[1];
  } catch {
    return undefined;
  }
}

export async function currentEnvironment(projectDir: string, now = new Date()): Promise<Environment> {
  const branch = await gitBranch(projectDir);
  return {
    projectDir,
    platform: platformName(),
    shell: shellName(),
    day: localDay(now),
    ...(branch ? { branch } : {}),
  };
}
