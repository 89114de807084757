// Runs Parley's server inside the extension host: SecretStorage for credentials, every workspace
// folder as a project, a free loopback port unless the user picked one, a clean stop.
import os from "node:os";
import path from "node:path";
import * as vscode from "vscode";
import { createRuntime, type Runtime } from "../app";
import { listen, type RunningServer } from "../server/listen";
import { createLogger } from "../platform/logger";
import type { ProjectRow } from "../projects/projects-repo";
import { VscodeSecretStore } from "./vscode-secret-store";

declare const PARLEY_VERSION: string | undefined;

export class ParleyHost implements vscode.Disposable {
  readonly trustedOrigins = new Set<string>();
  private server: RunningServer | undefined;
  private runtime: Runtime | undefined;
  private readonly output = vscode.window.createOutputChannel("Parley");

  constructor(private readonly context: vscode.ExtensionContext) {}

  get url(): string {
    if (!this.server) throw new Error("Parley's server is not running");
    return this.server.url;
  }

  get services(): Runtime {
    if (!this.runtime) throw new Error("Parley's server is not running");
    return this.runtime;
  }

  async start(): Promise<void> {
    const config = vscode.workspace.getConfiguration("parley");
    const home = config.get<string>("home") || process.env.APP_HOME || path.join(os.homedir(), ".app");
    this.runtime = createRuntime({
      home,
      log: createLogger((line) => this.output.append(line)),
      secrets: new VscodeSecretStore(this.context.secrets),
      gatewayBaseUrl: process.env.APP_GATEWAY_BASE_URL || undefined,
      gatewayAuthUrl: process.env.APP_GATEWAY_AUTH_URL || undefined,
      // Restricted Mode: every project counts as untrusted (contract 7.1): its actions, its MCP servers
      // and its loosening gates wait; workspaceTrustGranted() lifts it without a restart.
      workspaceTrusted: () => vscode.workspace.isTrusted,
    });
    // Projects first: a panel that loads as soon as the server listens finds the workspace already there.
    const [first] = await this.registerFolders();
    // The app's MCP servers start with Parley (contract 7.3), so the first turn finds them ready.
    if (first) void this.runtime.startAppMcpServers(first).catch(() => {});
    this.server = await listen(this.runtime, {
      version: typeof PARLEY_VERSION === "string" ? PARLEY_VERSION : "dev",
      webviewDir: vscode.Uri.joinPath(this.context.extensionUri, "media", "webview").fsPath,
      // 0: a free port, so a second VS Code window never collides with the first.
      port: config.get<number>("server.port") ?? 0,
      trustedOrigins: this.trustedOrigins,
    });
    this.context.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.registerFolders()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.workspaceTrustGranted()),
    );
    this.output.appendLine(`Parley is listening on ${this.server.url}`);
  }

  /** The workspace folders as projects (the first one is the panel's default). */
  async registerFolders(): Promise<ProjectRow[]> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const projects: ProjectRow[] = [];
    for (const folder of folders) {
      if (folder.uri.scheme !== "file") continue;
      projects.push(await this.services.projects.resolveDir(folder.uri.fsPath));
    }
    return projects;
  }

  /**
   * Restricted Mode ended (VS Code never takes trust back without restarting the extension host). The
   * projects' own entries count again, each under its own trust: an app-wide settings change makes the
   * MCP manager re-check every project whose servers were needed (a project trusted before starts its
   * servers now), and open UIs reload settings, tool gates and MCP status; a change per project makes
   * them reload that project's trust state, as trusting it on the This project page does.
   */
  private workspaceTrustGranted(): void {
    const { events, projects } = this.services;
    this.output.appendLine(
      "The workspace is trusted now: Restricted Mode no longer holds back the projects' own settings",
    );
    events.publish({ type: "settings.changed", data: { scope: "app" } });
    for (const project of projects.list())
      events.publish({ type: "settings.changed", data: { scope: "project", projectId: project.id } });
  }

  /** The server's address as the webview or a browser can reach it (remote setups forward it). */
  async externalUrl(): Promise<string> {
    const uri = await vscode.env.asExternalUri(vscode.Uri.parse(this.url));
    return uri.toString().replace(/\/$/, "");
  }

  async dispose(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
    this.output.dispose();
  }
}
