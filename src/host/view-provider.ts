// The Parley side panel: a webview that loads the Svelte bundle and talks to the server directly.
// Its state lives on the server, so it needs no retainContextWhenHidden.
import fs from "node:fs";
import * as vscode from "vscode";
import { webviewToHostSchema, type HostToWebview, type PanelTarget } from "../shared/host-messages";
import type { ParleyHost } from "./parley-host";
import { assetsFromManifest, webviewHtml } from "./webview-html";
import { openTurnDiff } from "./diff-editor";
import type { WorktreeDiffs } from "./worktree-diff";

export const VIEW_ID = "parley.chat";

export class ParleyViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  /**
   * Whether the webview's script is running and listening: from its "hello" until the view is
   * hidden (without retainContextWhenHidden VS Code discards a hidden webview's page and loads it
   * again when shown) or disposed. A message posted while it is not listening is lost.
   */
  private listening = false;
  /** Where the last command sent the panel while it was not listening; handed over with "ready". */
  private pendingTarget: PanelTarget | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: ParleyHost,
    private readonly worktreeDiffs: WorktreeDiffs,
  ) {}

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.view = view;
    this.listening = false;
    view.onDidChangeVisibility(() => {
      if (!view.visible) this.listening = false;
    });
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      this.listening = false;
    });
    const root = vscode.Uri.joinPath(this.context.extensionUri, "media", "webview");
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    view.webview.onDidReceiveMessage((message) => this.onMessage(message));
    const manifest = JSON.parse(fs.readFileSync(vscode.Uri.joinPath(root, ".vite", "manifest.json").fsPath, "utf8"));
    const serverUrl = await this.host.externalUrl();
    const [project] = await this.host.registerFolders();
    view.webview.html = webviewHtml(
      {
        assets: assetsFromManifest(manifest),
        cspSource: view.webview.cspSource,
        serverOrigin: new URL(serverUrl).origin,
        bootstrap: { serverUrl, token: this.host.services.token, projectId: project?.id },
      },
      (relPath) => view.webview.asWebviewUri(vscode.Uri.joinPath(root, relPath)).toString(),
    );
  }

  /**
   * Shows the panel and sends the UI to `target` (a chat, a settings page), whether the panel is
   * open, hidden or not yet created: a listening webview gets the message now, any other keeps it
   * until its "hello" and starts there.
   */
  async reveal(target?: PanelTarget): Promise<void> {
    const live = target !== undefined && this.listening && this.view?.visible === true;
    // Kept before the focus, which may load the page: its "hello" then finds the target waiting.
    if (target && !live) this.pendingTarget = target;
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    // Posted after the focus: focusing a webview moves its own focus, and would take the caret back
    // from where Focus Message Box put it.
    if (target && live && !(await this.post(target))) this.pendingTarget = target;
  }

  private async post(message: HostToWebview): Promise<boolean> {
    return (await this.view?.webview.postMessage(message)) ?? false;
  }

  private async onMessage(raw: unknown): Promise<void> {
    // The webview runs model output (sanitised, but still): what it sends is parsed, never trusted.
    const parsed = webviewToHostSchema.safeParse(raw);
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.type) {
      case "hello":
        // In a browser-based editor the webview's requests carry the editor's own origin.
        if (message.origin !== "null") this.host.trustedOrigins.add(message.origin);
        this.listening = true;
        if (await this.post({ type: "ready", open: this.pendingTarget })) this.pendingTarget = undefined;
        break;
      case "openExternal":
        await vscode.env.openExternal(vscode.Uri.parse(message.url));
        break;
      case "openDiff":
        await openTurnDiff(this.host.services, message.chatId, message.turnId, message.path).catch((error) => {
          void vscode.window.showErrorMessage(`Parley: cannot open the diff (${(error as Error).message})`);
        });
        break;
      case "openWorktreeDiff":
        await this.worktreeDiffs.open(message.chatId, message.path).catch((error) => {
          void vscode.window.showErrorMessage(`Parley: cannot open the diff (${(error as Error).message})`);
        });
        break;
    }
  }
}
