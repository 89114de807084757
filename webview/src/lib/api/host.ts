// Actions only an editor can do. In VS Code the extension host does them; in a browser the
// methods are absent (or fall back to the browser) and the UI hides what it cannot do.

export interface Host {
  /** Resolves when the UI may call the server (in VS Code, once the host trusts this webview's origin). */
  ready(): Promise<void>;
  /** Opens a URL outside the UI (system browser in VS Code, a popup in a browser tab). */
  openExternal(url: string): void;
  /** Opens a project file in the editor (VS Code only). */
  openFile?(relPath: string): void;
  /** Messages from the host (for example "open this chat" after the New Chat command). */
  onMessage(listener: (message: { type: string; [key: string]: unknown }) => void): void;
}

type VsCodeApi = { postMessage(message: unknown): void };
declare function acquireVsCodeApi(): VsCodeApi;

/**
 * Whether a message event comes from someone allowed to steer the UI: this page's own origin, or in
 * VS Code the editor's frame around the webview. Any other window (a page that opened this tab, say)
 * is ignored.
 */
export function isTrustedMessage(event: MessageEvent, inVsCode: boolean): boolean {
  if (event.origin === window.location.origin) return true;
  return inVsCode && window.parent !== window && event.source === window.parent;
}

export function createHost(inVsCode: boolean): Host {
  const onMessage: Host["onMessage"] = (listener) =>
    window.addEventListener("message", (event) => {
      if (!isTrustedMessage(event, inVsCode)) return;
      const data = event.data as { type?: unknown } | undefined;
      if (data && typeof data.type === "string") listener(data as { type: string });
    });
  if (inVsCode && typeof acquireVsCodeApi === "function") {
    const vscode = acquireVsCodeApi();
    const ready = new Promise<void>((resolve) => {
      window.addEventListener("message", (event) => isTrustedMessage(event, true) && event.data?.type === "ready" && resolve());
      vscode.postMessage({ type: "hello", origin: window.location.origin });
      setTimeout(resolve, 3000);
    });
    return {
      ready: () => ready,
      openExternal: (url) => vscode.postMessage({ type: "openExternal", url }),
      openFile: (relPath) => vscode.postMessage({ type: "openFile", path: relPath }),
      onMessage,
    };
  }
  return {
    ready: () => Promise.resolve(),
    openExternal: (url) => void window.open(url, "parley-signin", "popup,width=520,height=720"),
    onMessage,
  };
}
