// Where the UI finds its server: the VS Code webview gets a bootstrap JSON from the extension host;
// a browser tab uses its own origin and the session cookie set by the `/?token=` link.

export type Bootstrap = {
  serverUrl: string;
  /** Bearer token (webview only; a browser tab is authenticated by its cookie). */
  token?: string;
  projectId?: string;
  /** Present inside VS Code. */
  inVsCode: boolean;
};

export function readBootstrap(): Bootstrap {
  const element = document.getElementById("parley-bootstrap");
  if (element?.textContent) {
    const data = JSON.parse(element.textContent) as Omit<Bootstrap, "inVsCode">;
    return { ...data, serverUrl: data.serverUrl.replace(/\/+$/, ""), inVsCode: true };
  }
  // The folder the page was served from: the server may sit behind a path prefix (code-server's
  // /proxy/<port>/), so API calls are relative to it, never to the origin's root.
  return { serverUrl: new URL(".", window.location.href).href.replace(/\/$/, ""), inVsCode: false };
}
