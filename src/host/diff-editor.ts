// "Open diff" on a file change card: a real VS Code diff editor between what the file held before the
// turn (from the turn's checkpoint, served as a read-only virtual document) and the file as it is now.
import path from "node:path";
import * as vscode from "vscode";
import type { Runtime } from "../app";

export const BEFORE_SCHEME = "parley-before";

/** Serves `parley-before:/<path>?chat=…&turn=…` from the turn's checkpoint. */
export function registerBeforeContent(context: vscode.ExtensionContext, services: () => Runtime): void {
  const provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent(uri) {
      const query = new URLSearchParams(uri.query);
      const relPath = uri.path.replace(/^\//, "");
      const entry = services()
        .checkpoints.forTurn(query.get("chat") ?? "", query.get("turn") ?? "")
        .find((c) => c.path === relPath);
      return entry?.before ? Buffer.from(entry.before).toString("utf8") : "";
    },
  };
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(BEFORE_SCHEME, provider));
}

export async function openTurnDiff(services: Runtime, chatId: string, turnId: string, relPath: string): Promise<void> {
  const chat = services.chatService.get(chatId);
  const project = services.projects.byId(chat.projectId);
  const entry = services.checkpoints.forTurn(chatId, turnId).find((c) => c.path === relPath);
  if (!entry) {
    void vscode.window.showInformationMessage(
      `Parley: no change of ${relPath} is recorded for that turn (it may have been reverted).`,
    );
    return;
  }
  const before = vscode.Uri.from({
    scheme: BEFORE_SCHEME,
    path: `/${relPath}`,
    query: new URLSearchParams({ chat: chatId, turn: turnId }).toString(),
  });
  const now = vscode.Uri.file(path.join(project.dir, relPath));
  await vscode.commands.executeCommand("vscode.diff", before, now, `${relPath} (before the turn ↔ now)`);
}
