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
  define: { PARLEY_VERSION: JSON.stringify(pkg.version) },
};

const entries = [{ in: "src/cli.ts", out: "dist/cli.cjs", banner: "#!/usr/bin/env node" }];
if (fs.existsSync("src/extension.ts")) entries.push({ in: "src/extension.ts", out: "dist/extension.cjs" });

await Promise.all(
  entries.map((entry) =>
    build({ ...common, entryPoints: [entry.in], outfile: entry.out, banner: entry.banner ? { js: entry.banner } : undefined }),
  ),
);
fs.chmodSync("dist/cli.cjs", 0o755);

await viteBuild({ configFile: "webview/vite.config.ts", logLevel: "warn" });
// The sign-in page's own small script, next to the UI (served as /login.js; Vite empties its folder first).
await build({ entryPoints: ["webview/src/login.ts"], outfile: "media/webview/login.js", bundle: true, format: "esm", platform: "browser", target: "es2022", minify: true, logLevel: "warning" });
console.error("build: dist/ and media/webview/ are up to date");
