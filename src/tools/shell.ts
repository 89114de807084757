// The `shell` tool: `/bin/sh -c <cmd>` in the project (or a folder inside it), stdin closed, in a
// process group of its own so a timeout or a cancel kills everything it started, with an environment
// that carries none of Parley's secrets, inside the sandbox where there is one (contract 7.5), and its
// interleaved output capped as head and tail. What the sandbox stops (a write outside the project, a
// blocked connection) is the command's own error output, like any other failure.
import { spawn, type StdioOptions } from "node:child_process";
import type { z } from "zod";
import { HeadTailBuffer } from "./output-cap";
import type { shellArgsSchema } from "./native-tools";
import { resolveProjectPath } from "./project-files";
import type { SandboxedCommand } from "./sandbox/sandbox";

/** Wraps a command for the project's sandbox (or hands it back unchanged where it runs unconfined). */
export type ShellSandbox = (command: {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}) => Promise<SandboxedCommand>;

export const DEFAULT_SHELL_TIMEOUT_MS = 120_000;
/** After SIGTERM, how long the group has to exit before SIGKILL. */
const KILL_GRACE_MS = 2_000;

export type ShellResult = { exitCode: number | null; output: string; truncated: boolean; timedOut: boolean };

/** Variables a command may see; everything else (tokens, keys, Parley's and the editor's own) stays out. */
const PASSED_VARIABLES = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
];

export function shellEnvironment(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = { TERM: "dumb", NO_COLOR: "1", PAGER: "cat", GIT_PAGER: "cat" };
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && (PASSED_VARIABLES.includes(name) || name.startsWith("LC_"))) env[name] = value;
  }
  return env;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

export async function runShell(
  args: z.infer<typeof shellArgsSchema>,
  options: { root: string; signal: AbortSignal; sandbox?: ShellSandbox },
): Promise<ShellResult> {
  const cwd = args.cwd ? (await resolveProjectPath(options.root, args.cwd, "folder")).abs : options.root;
  const timeoutMs = args.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  const output = new HeadTailBuffer();
  const plain = { command: "/bin/sh", args: ["-c", args.cmd], cwd, env: shellEnvironment() };
  const run = options.sandbox ? await options.sandbox(plain) : { ...plain, release: () => {}, bridge: undefined };
  // Every place filled: node skips holes in `stdio`, which would move the IPC channel to another descriptor.
  const stdio: StdioOptions = ["ignore", "pipe", "pipe"];
  if (run.bridge) {
    while (stdio.length < run.bridge.ipcFd) stdio.push("ignore");
    stdio.push("ipc");
  }
  const child = spawn(run.command, run.args, { cwd, env: run.env, stdio, detached: true });
  run.bridge?.attach(child);
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk));
  // A pipe that fails ends the output, not Parley: `close` still settles the call below.
  for (const pipe of [child.stdout!, child.stderr!]) pipe.on("error", () => {});

  let timedOut = false;
  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    killGroup(child.pid, "SIGTERM");
    killTimer ??= setTimeout(() => killGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, timeoutMs);
  const onAbort = () => stop();
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) stop();

  try {
    const exitCode = await new Promise<number | null>((resolve, reject) => {
      child.once("error", reject);
      // `close`, not `exit`: the pipes are drained by then.
      child.once("close", (code) => resolve(code));
    });
    // Whatever the shell left running in its group goes with it (a sandbox's own namespace went already).
    killGroup(child.pid, "SIGKILL");
    return { exitCode, output: output.text(), truncated: output.truncated, timedOut };
  } finally {
    run.release();
    clearTimeout(timer);
    clearTimeout(killTimer);
    options.signal.removeEventListener("abort", onAbort);
  }
}
