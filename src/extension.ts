// VS Code entry point: start Parley's server, register the side panel and the commands.
import * as vscode from "vscode";
import { registerCommands } from "./host/commands";
import { ParleyHost } from "./host/parley-host";
import { registerBeforeContent } from "./host/diff-editor";
import { ParleyViewProvider, VIEW_ID } from "./host/view-provider";
import { WorktreeDiffs } from "./host/worktree-diff";
import { unsupportedNodeMessage } from "./platform/node-version";

let host: ParleyHost | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  // An editor whose extension host runs an older Node (VS Code before 1.101) would crash opening the
  // database (better-sqlite3 needs Node-API 10): say so instead, and start nothing.
  const tooOld = unsupportedNodeMessage(process.versions.node);
  if (tooOld) {
    void vscode.window.showErrorMessage(
      `Parley cannot start in this editor: ${tooOld}. It needs VS Code 1.101 or later.`,
    );
    return;
  }
  host = new ParleyHost(context);
  await host.start();
  const started = host;
  registerBeforeContent(context, () => started.services);
  const worktreeDiffs = new WorktreeDiffs(() => ({ url: started.url, token: started.services.token }));
  worktreeDiffs.register(context);
  const view = new ParleyViewProvider(context, host, worktreeDiffs);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(VIEW_ID, view));
  registerCommands(context, host, view);
}

export async function deactivate(): Promise<void> {
  await host?.dispose();
  host = undefined;
}
