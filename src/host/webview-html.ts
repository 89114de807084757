// The side panel's HTML: the built Svelte bundle under a strict CSP (scripts only with this load's
// nonce, network only to Parley's server), and the bootstrap the UI reads. No `vscode` import, so
// it is unit-tested directly.
import { randomBytes } from "node:crypto";

export type WebviewAssets = { script: string; styles: string[] };
export type WebviewPage = {
  assets: WebviewAssets;
  /** `webview.cspSource` */
  cspSource: string;
  serverOrigin: string;
  bootstrap: { serverUrl: string; token: string; projectId?: string };
};

const escapeAttribute = (value: string) => value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** Entry script and styles from Vite's manifest (media/webview/.vite/manifest.json). */
export function assetsFromManifest(
  manifest: Record<string, { file: string; css?: string[]; isEntry?: boolean }>,
): WebviewAssets {
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error("the webview build has no entry; run `npm run build`");
  return { script: entry.file, styles: entry.css ?? [] };
}

export function webviewHtml(page: WebviewPage, asUri: (relPath: string) => string): string {
  const nonce = randomBytes(18).toString("base64");
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // The highlighter of large code blocks runs in a worker made from a Blob URL by the UI's own code.
    "worker-src blob:",
    `style-src ${page.cspSource} 'unsafe-inline'`,
    `img-src ${page.cspSource} data:`,
    `font-src ${page.cspSource}`,
    `connect-src ${page.serverOrigin}`,
  ].join("; ");
  // JSON inside a script element: `<` is escaped so no string can close the element.
  const bootstrap = JSON.stringify(page.bootstrap).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.assets.styles.map((css) => `<link rel="stylesheet" href="${escapeAttribute(asUri(css))}">`).join("\n")}
<title>Parley</title>
</head>
<body>
<div id="app"></div>
<script id="parley-bootstrap" type="application/json" nonce="${nonce}">${bootstrap}</script>
<script type="module" nonce="${nonce}" src="${escapeAttribute(asUri(page.assets.script))}"></script>
</body>
</html>`;
}
