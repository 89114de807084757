// One bundle for the VS Code webview and the browser: relative asset paths so both can load it.
import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { fileURLToPath } from "node:url";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [
    svelte({
      // vscode-elements set their own ARIA roles and keyboard handling at run time, which the
      // compiler's static a11y checks cannot see; other a11y warnings stay on.
      onwarn(warning, handler) {
        if (warning.code.startsWith("a11y") && /<vscode-[a-z-]+/.test(warning.frame ?? "")) return;
        handler(warning);
      },
    }),
  ],
  build: {
    outDir: fileURLToPath(new URL("../media/webview", import.meta.url)),
    emptyOutDir: true,
    // The extension host reads the manifest to find the hashed entry files for the webview.
    manifest: true,
    target: "es2022",
  },
});
