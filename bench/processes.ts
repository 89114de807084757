// Starts the fake gateway and `parley serve` as separate processes for benchmarks, so that neither
// shares an event loop with the measuring client.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type Started = { child: ChildProcess; line: Record<string, any> };

export function startProcess(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const newline = out.indexOf("\n");
      if (newline >= 0) resolve({ child, line: JSON.parse(out.slice(0, newline)) });
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${stderr}`)));
  });
}

export async function startStack() {
  const gateway = await startProcess(["--import", "tsx", "test/fake-gateway/main.ts"]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-"));
  fs.mkdirSync(path.join(root, "project"));
  const parley = await startProcess(["dist/cli.cjs", "serve", "--port", "0", "--home", path.join(root, "home"), "--project", path.join(root, "project")], {
    APP_GATEWAY_BASE_URL: gateway.line.baseUrl,
  });
  const { url, token, projects } = parley.line as { url: string; token: string; projects: { id: string }[] };
  const api = (method: string, route: string, body?: unknown) =>
    fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  await api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-fake-bench" }] });
  return {
    gatewayBaseUrl: gateway.line.baseUrl as string,
    parleyUrl: url,
    token,
    projectId: projects[0]!.id,
    api,
    stop() {
      gateway.child.kill("SIGTERM");
      parley.child.kill("SIGTERM");
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
