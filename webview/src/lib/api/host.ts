// Actions only an editor can do. In VS Code the extension host does them; in a browser the
// methods fall back to the browser and the UI hides what it cannot do. The messages both ways are
// the shared discriminated unions of src/shared/host-messages.ts.
import { hostToWebviewSchema, type HostToWebview, type PanelTarget, type WebviewToHost } from "$shared/host-messages";
import { browserLink } from "../access";
import type { Bootstrap } from "../bootstrap";

export interface Host {
  /**
   * Resolves when the UI may call the server (in VS Code, once the host trusts this webview's
   * origin), with where a command sent the panel before this page was listening, if anywhere.
   */
  ready(): Promise<PanelTarget | undefined>;
  /** Opens a URL outside the UI (system browser in VS Code, a popup in a browser tab). */
  openExternal(url: string): void;
  /** Opens an editor diff of a file a turn changed; absent in a browser (the UI hides "Open diff"). */
  openDiff?(chatId: string, turnId: string, path: string): void;
  /**
   * Opens an editor diff of a file a worktree chat changed, its base against its worktree (contract
   * 7.6); absent in a browser (the board shows the diff itself).
   */
  openWorktreeDiff?(chatId: string, path: string): void;
  /** Opens this app's page `hash` in the system browser, signed in; VS Code only (the UI hides it elsewhere). */
  openInBrowser?(hash: string): void;
  /** Whether passkeys (WebAuthn) can work here: not in VS Code's webviews. */
  readonly passkeys: boolean;
  /** Whether the page may ask for the microphone: not in VS Code's webviews, whose frames are not allowed it. */
  readonly microphone: boolean;
  /** Messages from the host (for example "open this chat" after the New Chat command). */
  onMessage(listener: (message: HostToWebview) => void): void;
}

type VsCodeApi = { postMessage(message: WebviewToHost): void };
declare function acquireVsCodeApi(): VsCodeApi;

/**
 * Whether a message event comes from someone allowed to steer the UI: this page's own origin, or in
 * VS Code the editor's frame around the webview. Any other window (a page that opened this tab, say)
 * is ignored.
 */
export function isTrustedMessage(event: MessageEvent<unknown>, inVsCode: boolean): boolean {
  if (event.origin === window.location.origin) return true;
  return inVsCode && window.parent !== window && event.source === window.parent;
}

/** A trusted host message, or undefined for anything else (other windows' messages, unknown types). */
export function readHostMessage(event: MessageEvent<unknown>, inVsCode: boolean): HostToWebview | undefined {
  if (!isTrustedMessage(event, inVsCode)) return undefined;
  const parsed = hostToWebviewSchema.safeParse(event.data);
  return parsed.success ? parsed.data : undefined;
}

export function createHost(boot: Bootstrap): Host {
  const { inVsCode } = boot;
  const onMessage: Host["onMessage"] = (listener) =>
    window.addEventListener("message", (event: MessageEvent<unknown>) => {
      const message = readHostMessage(event, inVsCode);
      if (message) listener(message);
    });
  if (inVsCode && typeof acquireVsCodeApi === "function") {
    const vscode = acquireVsCodeApi();
    const ready = new Promise<PanelTarget | undefined>((resolve) => {
      window.addEventListener("message", (event: MessageEvent<unknown>) => {
        const message = readHostMessage(event, true);
        if (message?.type === "ready") resolve(message.open);
      });
      vscode.postMessage({ type: "hello", origin: window.location.origin });
      // An older host that never answers must not leave the panel blank.
      setTimeout(() => resolve(undefined), 3000);
    });
    return {
      ready: () => ready,
      openExternal: (url) => vscode.postMessage({ type: "openExternal", url }),
      openDiff: (chatId, turnId, path) => vscode.postMessage({ type: "openDiff", chatId, turnId, path }),
      openWorktreeDiff: (chatId, path) => vscode.postMessage({ type: "openWorktreeDiff", chatId, path }),
      openInBrowser: (hash) =>
        vscode.postMessage({ type: "openExternal", url: browserLink(boot.serverUrl, boot.token, hash) }),
      passkeys: false,
      microphone: false,
      onMessage,
    };
  }
  return {
    ready: () => Promise.resolve(undefined),
    openExternal: (url) => void window.open(url, "parley-signin", "popup,width=520,height=720"),
    passkeys: true,
    microphone: true,
    onMessage,
  };
}
