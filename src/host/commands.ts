// Command palette commands (category Parley). Each works on the in-process services and says what
// it did.
import * as vscode from "vscode";
import { OAUTH_CALLBACK_PATH } from "../gateway/oauth-routes";
import { callLocalApi } from "./local-api";
import type { ParleyHost } from "./parley-host";
import type { ParleyViewProvider } from "./view-provider";

export function registerCommands(context: vscode.ExtensionContext, host: ParleyHost, view: ParleyViewProvider): void {
  const register = (id: string, run: () => Promise<unknown>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async () => {
        try {
          await run();
        } catch (error) {
          void vscode.window.showErrorMessage(`Parley: ${(error as Error).message}`);
        }
      }),
    );
  const s = () => host.services;

  register("parley.signIn", async () => {
    const callbackUrl = `${await host.externalUrl()}${OAUTH_CALLBACK_PATH}`;
    const { authorizeUrl } = s().gatewayOAuth.start(callbackUrl, "/#/settings/providers");
    const before = (await s().accounts.list()).length;
    await vscode.env.openExternal(vscode.Uri.parse(authorizeUrl));
    void vscode.window.showInformationMessage("Parley: finish signing in in your browser.");
    const stop = s().events.subscribe((event) => {
      if (event.type !== "accounts.changed") return;
      void s()
        .accounts.list()
        .then((accounts) => {
          if (accounts.length <= before) return;
          stop();
          void vscode.window.showInformationMessage(`Parley: signed in as ${accounts.at(-1)!.label}…`);
        });
    });
    setTimeout(stop, 10 * 60 * 1000);
  });

  register("parley.manageAccounts", async () => {
    const accounts = await s().accounts.list();
    if (accounts.length === 0) {
      void vscode.window.showInformationMessage("Parley: no gateway account is signed in.");
      return;
    }
    const picked = await vscode.window.showQuickPick(
      accounts.map((a) => ({ label: `${a.label}…`, description: a.active ? "active" : "", account: a })),
      { title: "Gateway accounts", placeHolder: "Choose an account" },
    );
    if (!picked) return;
    const action = await vscode.window.showQuickPick(
      picked.account.active ? ["Sign out"] : ["Use this account", "Sign out"],
      { title: picked.label },
    );
    if (action === "Use this account") await s().accounts.activate(picked.account.id);
    if (action === "Sign out") await s().accounts.remove(picked.account.id);
    if (action)
      void vscode.window.showInformationMessage(
        `Parley: ${action === "Sign out" ? "signed out of" : "now using"} ${picked.label}`,
      );
  });

  register("parley.setApiKey", async () => {
    const key = await vscode.window.showInputBox({
      title: "Gateway API key",
      password: true,
      ignoreFocusOut: true,
      prompt: "Stored in VS Code's secret storage, never in a project folder",
    });
    if (!key) return;
    await s().settings.patchApp({ providers: [{ id: "gateway", apiKey: key.trim(), authMode: "apiKey" }] });
    void vscode.window.showInformationMessage("Parley: the gateway API key is saved.");
  });

  const newChat = async (promptId?: string) => {
    const [project] = await host.registerFolders();
    if (!project) throw new Error("open a folder first: Parley chats belong to a project");
    const chat = await s().chatService.create(project, promptId ? { promptId } : {});
    await view.reveal({ type: "openChat", chatId: chat.id });
    return chat;
  };
  register("parley.newChat", () => newChat());

  // Through the server's own route (contract 7.6), which makes the worktree and the branch and removes
  // them again if the chat cannot be stored; its 409 (not a git repository, no commits yet) is shown
  // in the server's words.
  register("parley.newChatInWorktree", async () => {
    const [project] = await host.registerFolders();
    if (!project) throw new Error("open a folder first: Parley chats belong to a project");
    const chat = await callLocalApi({ url: host.url, token: s().token }, "POST /api/projects/:id/chats", {
      params: { id: project.id },
      body: { worktree: true },
    });
    await view.reveal({ type: "openChat", chatId: chat.id });
    void vscode.window.showInformationMessage(`Parley: the new chat works on branch ${chat.worktreeBranch}.`);
  });

  register("parley.newChatWithPrompt", async () => {
    const [project] = await host.registerFolders();
    if (!project) throw new Error("open a folder first: Parley chats belong to a project");
    const { prompts } = s().prompts.listForProject(await s().settings.snapshot(project));
    const usable = prompts.filter((p) => !p.overridden);
    if (usable.length === 0) {
      void vscode.window.showInformationMessage("Parley: no custom prompts yet. Create one under Settings.");
      return;
    }
    const picked = await vscode.window.showQuickPick(
      usable.map((p) => ({
        label: p.title || p.id,
        description: p.scope === "project" ? "This project" : "App",
        detail: p.content.split("\n")[0],
        id: p.id,
      })),
      { title: "New chat with prompt" },
    );
    if (picked) await newChat(picked.id);
  });

  register("parley.managePrompts", () => view.reveal({ type: "navigate", hash: "#/settings/prompts" }));
  // The view's title-bar buttons (History, Settings) and the Focus Message Box key: the panel goes
  // there itself, so they work on whatever page it shows and whether it is open, hidden or closed.
  register("parley.showHistory", () => view.reveal({ type: "navigate", hash: "#/" }));
  register("parley.openSettings", () => view.reveal({ type: "navigate", hash: "#/settings/providers" }));
  register("parley.focusComposer", () => view.reveal({ type: "focusComposer" }));

  register("parley.openInBrowser", async () => {
    await vscode.env.openExternal(
      vscode.Uri.parse(`${await host.externalUrl()}/?token=${encodeURIComponent(s().token)}`),
    );
  });

  register("parley.copyServerUrl", async () => {
    await vscode.env.clipboard.writeText(await host.externalUrl());
    void vscode.window.showInformationMessage("Parley: the server URL is on the clipboard.");
  });
}
