// Starts a real Parley server in-process on a loopback port, with a temporary home and project.
import fs from "node:fs";
import path from "node:path";
import { createRuntime, type Runtime, type RuntimeOptions } from "../../src/app";
import { listen, type RunningServer } from "../../src/server/listen";
import { createLogger } from "../../src/platform/logger";
import { makeTempDir, removeDir } from "./temp";

export type TestServer = {
  url: string;
  token: string;
  home: string;
  projectDir: string;
  runtime: Runtime;
  server: RunningServer;
  logLines: string[];
  /** fetch against the server with the Bearer token (unless headers override it). */
  api(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
};

export type TestServerOptions = {
  home?: string;
  gatewayBaseUrl?: string;
  gatewayAuthUrl?: string;
  webviewDir?: string;
  retryBaseMs?: number;
  /** Replaces the sandbox probe (a machine without a sandbox). */
  sandboxProbe?: RuntimeOptions["sandboxProbe"];
};

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const root = makeTempDir();
  const home = options.home ?? path.join(root, "home");
  const projectDir = path.join(root, "project");
  fs.mkdirSync(projectDir, { recursive: true });
  const logLines: string[] = [];
  const runtime = createRuntime({
    home,
    log: createLogger((line) => logLines.push(line)),
    gatewayBaseUrl: options.gatewayBaseUrl,
    gatewayAuthUrl: options.gatewayAuthUrl,
    retryBaseMs: options.retryBaseMs ?? 5,
    ...(options.sandboxProbe ? { sandboxProbe: options.sandboxProbe } : {}),
  });
  const server = await listen(runtime, { version: "test", port: 0, webviewDir: options.webviewDir });
  return {
    url: server.url,
    token: runtime.token,
    home,
    projectDir,
    runtime,
    server,
    logLines,
    api(method, route, body, headers = {}) {
      const init: RequestInit = { method, headers: { authorization: `Bearer ${runtime.token}`, ...headers } };
      if (body !== undefined) {
        (init.headers as Record<string, string>)["content-type"] ??= "application/json";
        init.body = typeof body === "string" ? body : JSON.stringify(body);
      }
      return fetch(`${server.url}${route}`, init);
    },
    async stop() {
      await server.close();
      removeDir(root);
    },
  };
}

/** `?projectDir=` for a folder, URL-encoded. */
export function projectQuery(dir: string): string {
  return `projectDir=${encodeURIComponent(dir)}`;
}
