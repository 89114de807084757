// Spawns the built `parley serve` (dist/cli.cjs) and waits for its ready line.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const CLI = path.resolve("dist/cli.cjs");

export type ReadyLine = { url: string; token: string; home: string; projects: { id: string; dir: string }[] };
export type CliProcess = {
  child: ChildProcess;
  ready: ReadyLine;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
};

function requireBuild(): void {
  if (!fs.existsSync(CLI)) throw new Error("dist/cli.cjs is missing: run `npm run build` (npm test does it)");
}

export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  requireBuild();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

export async function startCli(args: string[], env: Record<string, string> = {}): Promise<CliProcess> {
  requireBuild();
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      stdout += d;
      const newline = stdout.indexOf("\n");
      if (newline >= 0) resolve(JSON.parse(stdout.slice(0, newline)) as ReadyLine);
    });
    void exited.then((code) => reject(new Error(`parley exited with ${code} before it was ready: ${stderr}`)));
  });
  return { child, ready, stdout: () => stdout, stderr: () => stderr, exited };
}
