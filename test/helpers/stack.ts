// A running Parley (`parley serve`, built) against the fake gateway, each in its own process,
// with a temporary home and project: what a user runs, for end-to-end tests.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLI } from "./cli-process";
import { makeTempDir, removeDir } from "./temp";

function start(
  args: string[],
  env: Record<string, string>,
): Promise<{ child: ChildProcess; line: Record<string, any> }> {
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

export type Stack = {
  url: string;
  token: string;
  projectDir: string;
  gateway: { baseUrl: string; authUrl: string };
  api(method: string, route: string, body?: unknown): Promise<Response>;
  stop(): Promise<void>;
};

/** `gatewayBaseUrl` points Parley at another server (a self-hosted one) instead of the fake. */
export async function startStack(options: { gatewayBaseUrl?: string } = {}): Promise<Stack> {
  if (!fs.existsSync(CLI)) throw new Error("dist/cli.cjs is missing: run `npm run build` (npm test does it)");
  const root = makeTempDir();
  const projectDir = path.join(root, "my-project");
  fs.mkdirSync(projectDir);
  fs.writeFileSync(path.join(projectDir, "README.md"), "# My project\n");
  // A free port: the fake's fixed default is for people trying Parley by hand.
  const gateway = await start(["--import", "tsx", "test/fake-gateway/main.ts"], { PORT: "0" });
  const parley = await start(
    [CLI, "serve", "--port", "0", "--home", path.join(root, "home"), "--project", projectDir],
    {
      APP_GATEWAY_BASE_URL: options.gatewayBaseUrl ?? gateway.line.baseUrl,
      APP_GATEWAY_AUTH_URL: gateway.line.authUrl,
    },
  );
  const { url, token } = parley.line as { url: string; token: string };
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
  return {
    url,
    token,
    projectDir,
    gateway: gateway.line as { baseUrl: string; authUrl: string },
    api: (method, route, body) =>
      fetch(`${url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async stop() {
      parley.child.kill("SIGTERM");
      gateway.child.kill("SIGTERM");
      await Promise.all([exited(parley.child), exited(gateway.child)]);
      removeDir(root);
    },
  };
}
