// VS Code entry point: start Parley's server, register the side panel and the commands.
import * as vscode from "vscode";
import { registerCommands } from "./host/commands";
import { ParleyHost } from "./host/parley-host";
import { registerBeforeContent } from "./host/diff-editor";
import { ParleyViewProvider, VIEW_ID } from "./host/view-provider";

let host: ParleyHost | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  host = new ParleyHost(context);
  await host.start();
  const started = host;
  registerBeforeContent(context, () => started.services);
  const view = new ParleyViewProvider(context, host);
  context.subscriptions.push(vscode.window.registerWebviewViewProvider(VIEW_ID, view));
  registerCommands(context, host, view);
}

export async function deactivate(): Promise<void> {
  await host?.dispose();
  host = undefined;
}
