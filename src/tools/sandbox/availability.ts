// Whether this machine can sandbox commands (contract 7.5): bubblewrap on Linux, `sandbox-exec` on
// macOS, nothing elsewhere. The Linux probe runs bwrap once with every namespace and mount the real
// commands use, so a container that forbids user namespaces (or mounting `/proc`) is found here, with
// bwrap's own words as the reason, rather than as a failure of each command.
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { SandboxAvailability } from "./sandbox-rules";
import { bwrapArgs } from "./bwrap-args";
import { SANDBOX_EXEC } from "./seatbelt-profile";

const PROBE_TIMEOUT_MS = 10_000;

/** `name` on the PATH (or an absolute path that exists), else undefined. */
export async function findExecutable(name: string, searchPath = process.env.PATH ?? ""): Promise<string | undefined> {
  const candidates = path.isAbsolute(name)
    ? [name]
    : searchPath
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, name));
  for (const candidate of candidates) {
    try {
      await fs.access(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // next
    }
  }
  return undefined;
}

/** Runs a probe command: its exit code and the first lines of what it said. */
function run(command: string, args: string[], stdio3?: Buffer): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe", stdio3 ? "pipe" : "ignore"] });
    let output = "";
    const collect = (chunk: Buffer) => (output = (output + chunk.toString()).slice(0, 2_000));
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    if (stdio3) (child.stdio[3] as NodeJS.WritableStream).end(stdio3);
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    child.once("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, output: error.message });
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.trim() });
    });
  });
}

async function probeBwrap(filter: Buffer): Promise<SandboxAvailability> {
  const bwrap = await findExecutable("bwrap");
  if (!bwrap)
    return {
      available: false,
      reason: "bubblewrap is not installed (Debian and Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)",
    };
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "parley-probe-")));
  try {
    const args = bwrapArgs({
      projectRoot: dir,
      cwd: dir,
      hidden: [],
      network: "off",
      facts: new Map(),
      seccompFd: 3,
      command: "true",
      args: [],
    });
    const { code, output } = await run(bwrap, args, filter);
    if (code === 0) return { available: true, kind: "bwrap", executable: bwrap };
    const said = output.split("\n")[0] || `exit code ${code}`;
    return {
      available: false,
      reason: `bubblewrap cannot create a sandbox here (${said}); user namespaces may be disabled, as in many containers`,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function probeSeatbelt(): Promise<SandboxAvailability> {
  if (!(await findExecutable(SANDBOX_EXEC))) return { available: false, reason: `${SANDBOX_EXEC} is missing` };
  const { code, output } = await run(SANDBOX_EXEC, ["-p", "(version 1)(allow default)", "--", "/usr/bin/true"]);
  return code === 0
    ? { available: true, kind: "seatbelt", executable: SANDBOX_EXEC }
    : { available: false, reason: `sandbox-exec cannot run here (${output.split("\n")[0] || `exit code ${code}`})` };
}

/** Probes the platform's sandbox; `filter` is the seccomp program Linux commands run under. */
export async function probeSandbox(platform: NodeJS.Platform, filter: Buffer): Promise<SandboxAvailability> {
  if (platform === "linux") return probeBwrap(filter);
  if (platform === "darwin") return probeSeatbelt();
  if (platform === "win32")
    return { available: false, reason: "Windows has no sandbox Parley can use: commands run with your full rights" };
  return { available: false, reason: `no sandbox is known for ${platform}` };
}
