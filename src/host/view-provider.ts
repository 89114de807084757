// The Parley side panel: a webview that loads the Svelte bundle and talks to the server directly.
// Its state lives on the server, so it needs no retainContextWhenHidden.
import fs from "node:fs";
import * as vscode from "vscode";
import { webviewToHostSchema, type HostToWebview } from "../shared/host-messages";
import type { ParleyHost } from "./parley-host";
import { assetsFromManifest, webviewHtml } from "./webview-html";
import { openTurnDiff } from "./diff-editor";

export const VIEW_ID = "parley.chat";

export class ParleyViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly host: ParleyHost,
  ) {}

  async resolveWebviewView(view: vscode.WebviewView): Promise<void> {
    this.view = view;
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

  /** Shows the panel and passes a message to the UI (open a chat, go to a settings page). */
  async reveal(message?: HostToWebview): Promise<void> {
    await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
    if (message) await this.post(message);
  }

  private async post(message: HostToWebview): Promise<void> {
    await this.view?.webview.postMessage(message);
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
        await this.post({ type: "ready" });
        break;
      case "openExternal":
        await vscode.env.openExternal(vscode.Uri.parse(message.url));
        break;
      case "openDiff":
        await openTurnDiff(this.host.services, message.chatId, message.turnId, message.path).catch((error) => {
          void vscode.window.showErrorMessage(`Parley: cannot open the diff (${(error as Error).message})`);
        });
        break;
    }
  }
}
