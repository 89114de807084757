// The import rules `npm test` holds the code to (dependency-cruiser). Lower layers never reach up:
// shared (zod schemas the UI shares) < core (pure rules) < store (SQL and file formats) < providers,
// tools, services (the I/O that ties them together) < server and host (HTTP and VS Code); only the
// host imports `vscode`; the webview reaches the server's code only through src/shared; and no module
// imports itself back through a circle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A circle makes every module in it load, change and test together. A tool card renders its subagent's cards with itself: recursion, not a circle of modules.",
      from: { pathNot: "^webview/src/components/chat/tools/ToolCard\\.svelte$" },
      to: { circular: true },
    },
    {
      name: "shared-is-a-leaf",
      severity: "error",
      comment: "src/shared is bundled into the UI: it holds schemas, never server code.",
      from: { path: "^src/shared/" },
      to: { path: "^src/(?!shared/)" },
    },
    {
      name: "core-is-pure",
      severity: "error",
      comment: "src/core holds pure rules; I/O lives above it.",
      from: { path: "^src/core/" },
      to: { path: "^src/(store|services|tools|providers|server|host)/" },
    },
    {
      name: "store-reaches-no-service",
      severity: "error",
      comment: "src/store is SQL and file formats; it calls no service.",
      from: { path: "^src/store/" },
      to: { path: "^src/(services|tools|providers|server|host)/" },
    },
    {
      name: "server-and-host-on-top",
      severity: "error",
      comment: "Features never reach into HTTP plumbing or the editor.",
      from: { path: "^src/(shared|core|store|services|tools|providers)/" },
      to: { path: "^src/(server|host)/" },
    },
    {
      name: "only-the-host-imports-vscode",
      severity: "error",
      comment: "Everything but src/host (and the extension's entry) runs under plain Node.",
      from: { pathNot: "^src/(host/|extension\\.ts$)" },
      to: { path: "^vscode$" },
    },
    {
      name: "webview-reaches-only-shared",
      severity: "error",
      comment:
        "The UI is a client of the server's API; it shares schemas, not server code. The mention ranking it runs too is the one exception until the engine becomes a module (issue 33).",
      from: { path: "^webview/src/" },
      to: { path: "^src/(?!shared/)", pathNot: "^src/core/mention-" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".svelte", ".mjs", ".cjs", ".json"] },
  },
};
