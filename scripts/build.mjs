// Builds the CLI and extension bundles (esbuild) and the web UI (Vite). Run by npm scripts on Node 24.
import { build } from "esbuild";
import { build as viteBuild } from "vite";
import fs from "node:fs";

const pkg = JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8"));

const common = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node22",
  sourcemap: true,
  minify: true,
  keepNames: true,
  logLevel: "warning",
  // Native addon and the editor API are provided at run time, never bundled.
  external: ["better-sqlite3", "vscode"],
  define: { PARLEY_VERSION: JSON.stringify(pkg.version), "import.meta.url": "__parleyModuleUrl" },
};
// Source modules find sibling files (the mention worker) from import.meta.url; in a CommonJS bundle
// that is the bundle's own file.
const moduleUrl = 'var __parleyModuleUrl=require("url").pathToFileURL(__filename).href;';

const entries = [
  { in: "src/cli.ts", out: "dist/cli.cjs", banner: "#!/usr/bin/env node" },
  // Scans, watches and ranks files off the main thread; loaded from next to cli.cjs / extension.cjs.
  { in: "src/mentions/mention-worker.ts", out: "dist/mention-worker.cjs" },
  // Ranks half of each big index beside the mention worker (see src/mentions/ranking-shards.ts).
  { in: "src/mentions/ranking-shard-worker.ts", out: "dist/ranking-shard-worker.cjs" },
  // Each project's file watcher runs in a child process started from the mention worker. The
  // @parcel/watcher JS is bundled; its native prebuild (@parcel/watcher-<platform>) is required at run time.
  { in: "src/mentions/file-watcher-process.ts", out: "dist/file-watcher-process.cjs" },
  // Turns a page web_fetch read into markdown off the main thread (see src/tools/web-fetch/html-converter.ts).
  { in: "src/tools/web-fetch/html-markdown-worker.ts", out: "dist/html-markdown-worker.cjs" },
];
if (fs.existsSync("src/extension.ts")) entries.push({ in: "src/extension.ts", out: "dist/extension.cjs" });

await Promise.all(
  entries.map((entry) =>
    build({
      ...common,
      entryPoints: [entry.in],
      outfile: entry.out,
      banner: { js: entry.banner ? `${entry.banner}\n${moduleUrl}` : moduleUrl },
    }),
  ),
);
fs.chmodSync("dist/cli.cjs", 0o755);

await viteBuild({ configFile: "webview/vite.config.ts", logLevel: "warn" });
// The sign-in page's own small script, next to the UI (served as /login.js; Vite empties its folder first).
await build({
  entryPoints: ["webview/src/login.ts"],
  outfile: "media/webview/login.js",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  logLevel: "warning",
});
console.error("build: dist/ and media/webview/ are up to date");
