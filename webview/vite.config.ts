// One bundle for the VS Code webview and the browser: relative asset paths so both can load it.
import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { fileURLToPath } from "node:url";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  resolve: {
    // The server's zod schemas, shared with the UI; the same alias is in both tsconfig.json "paths".
    alias: { $shared: fileURLToPath(new URL("../src/shared", import.meta.url)) },
  },
  plugins: [
    // No warning filter: the few false positives of vscode-elements are ignored where they occur
    // (see Button.svelte), so the build and svelte-check report the same.
    svelte(),
  ],
  build: {
    outDir: fileURLToPath(new URL("../media/webview", import.meta.url)),
    emptyOutDir: true,
    // The extension host reads the manifest to find the hashed entry files for the webview.
    manifest: true,
    target: "es2022",
    // The settings chunk is imported on demand. No <link rel="modulepreload"> for it: the webview's
    // CSP admits scripts by nonce, and such a link, made at run time, has none.
    modulePreload: false,
  },
});
