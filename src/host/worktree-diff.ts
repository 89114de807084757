// A worktree chat's diff per file (contract 7.6): VS Code's diff editor between the file at the chat's
// base and the file in its worktree, both read-only virtual documents whose text comes from Parley's
// server (GET /api/chats/:id/worktree/file), so the editor shows only what the server says the chat
// changed and never opens a path of its own.
import * as vscode from "vscode";
import { callLocalApi, type LocalServer } from "./local-api";

export const WORKTREE_SCHEME = "parley-worktree";

type Side = "base" | "worktree";

function sideUri(chatId: string, relPath: string, side: Side): vscode.Uri {
  // The path keeps the file's name, so the tab and the language mode are the file's own.
  return vscode.Uri.from({
    scheme: WORKTREE_SCHEME,
    path: `/${relPath}`,
    query: new URLSearchParams({ chat: chatId, side }).toString(),
  });
}

/** A branch, or the first characters of the commit a chat started from when the project's HEAD was detached. */
function refName(ref: string): string {
  return /^[0-9a-f]{40,64}$/.test(ref) ? ref.slice(0, 12) : ref;
}

export class WorktreeDiffs implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  /** The text last fetched for each side's URI: one fetch serves both sides of a diff. */
  private readonly texts = new Map<string, string>();

  constructor(private readonly server: () => LocalServer) {}

  register(context: vscode.ExtensionContext): void {
    context.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(WORKTREE_SCHEME, this),
      this.changed,
    );
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) return known;
    // A diff VS Code restores after a reload: fetched again; a file the chat no longer changes shows empty.
    const query = new URLSearchParams(uri.query);
    const file = await this.file(query.get("chat") ?? "", uri.path.replace(/^\//, "")).catch(() => undefined);
    return (query.get("side") === "base" ? file?.before : file?.after) ?? "";
  }

  private file(chatId: string, relPath: string) {
    return callLocalApi(this.server(), "GET /api/chats/:id/worktree/file", {
      params: { id: chatId },
      query: { path: relPath },
    });
  }

  /**
   * Opens the diff of `relPath` (relative to the repository's top folder) for the worktree chat
   * `chatId`. The server refuses (404) a path the chat did not change; a binary or very large file is
   * said so instead of shown. An open diff of the same file shows the latest text.
   */
  async open(chatId: string, relPath: string): Promise<void> {
    const [worktree, file] = await Promise.all([
      callLocalApi(this.server(), "GET /api/chats/:id/worktree", { params: { id: chatId } }),
      this.file(chatId, relPath),
    ]);
    if (file.binary) {
      void vscode.window.showInformationMessage(
        `Parley: ${file.path} is binary or too large to show in a diff editor.`,
      );
      return;
    }
    const base = sideUri(chatId, file.path, "base");
    const ours = sideUri(chatId, file.path, "worktree");
    // null: the file is absent on that side (added or deleted by the chat), shown as empty.
    for (const [uri, text] of [
      [base, file.before ?? ""],
      [ours, file.after ?? ""],
    ] as const) {
      this.texts.set(uri.toString(), text);
      this.changed.fire(uri);
    }
    const title = `${file.path} (${refName(worktree.base)} ↔ ${worktree.branch})`;
    await vscode.commands.executeCommand("vscode.diff", base, ours, title, { preview: true });
  }
}
