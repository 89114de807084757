// Real MCP servers from npm for the tests, started on loopback, and the fixture server for the bad paths.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export const EVERYTHING = path.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM = path.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");
export const CONTEXT7 = path.resolve("node_modules/@upstash/context7-mcp/dist/index.js");
export const HOSTILE = path.resolve("test/fixtures/mcp/hostile-server.mjs");

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type HttpMcpServer = { child: ChildProcess; port: number; stop(): Promise<void> };

/**
 * Starts a server that listens on `port` and resolves once it says so on stderr or stdout (each
 * server words it its own way: `listening`, `running`).
 */
export async function startHttpServer(args: string[], port: number, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let said = "";
  await new Promise<void>((resolve, reject) => {
    const listen = (chunk: Buffer) => {
      said += chunk;
      if (/listening|running|started/i.test(said)) resolve();
    };
    child.stdout!.on("data", listen);
    child.stderr!.on("data", listen);
    void exited.then(() => reject(new Error(`the server exited before it listened: ${said}`)));
  });
  return {
    child,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  } satisfies HttpMcpServer;
}

/** server-everything over `streamableHttp` (at /mcp) or `sse` (at /sse). */
export function startEverything(transport: "streamableHttp" | "sse", port: number) {
  return startHttpServer([EVERYTHING, transport], port);
}

/** Whether process `pid` is gone (or a zombie nobody has reaped yet: it runs no more code). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]![0] === "Z";
  } catch {
    return true;
  }
}

/**
 * The live processes (zombies aside) whose command line contains `fragment`, by pid. It finds a
 * process inside a sandbox too, whose own pid (in its namespace) means nothing out here.
 */
export function processesWith(fragment: string): number[] {
  return fs.readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return [];
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      return cmdline.includes(fragment) && !processGone(Number(entry)) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** The starts a fixture server noted in its pid file, one a line (see hostile-server.mjs). */
export function startsIn(file: string): string[] {
  try {
    return fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/** Whether the fixture server of one start has ended (it names itself after its start). */
export function startGone(start: string): boolean {
  return processesWith(`parley-hostile-${start}`).length === 0;
}
