// The import rules `npm test` holds the code to (dependency-cruiser). src/ is grouped by feature
// (chat, tools, mentions, settings, prompts, projects, gateway, access, dictation, search), each holding its
// use cases, pure rules, store and route handlers. Below them: platform (logging, events, SQLite, atomic
// writes, HTTP plumbing) and shared (the zod schemas and pure rules the UI shares). Above them: server
// (listen, middleware, the express app), app.ts (the composition root), and the entry points: cli.ts
// and the VS Code host. Features may use each other, never in a circle, and never reach upward.
/** @type {import('dependency-cruiser').IConfiguration} */
const FEATURES = "(chat|tools|mentions|settings|prompts|projects|gateway|access|dictation|search)";

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
      comment:
        "src/shared is bundled into the UI: it holds the schemas and the pure rules both sides run (the mention ranking among them), never server code.",
      from: { path: "^src/shared/" },
      to: { path: "^src/(?!shared/)" },
    },
    {
      name: "platform-is-the-floor",
      severity: "error",
      comment: "src/platform serves every feature and knows none of them.",
      from: { path: "^src/platform/" },
      to: { path: "^src/(?!platform/|shared/)" },
    },
    {
      name: "features-never-reach-up",
      severity: "error",
      comment: "A feature never reaches into the express app, the composition root or an entry point.",
      from: { path: `^src/${FEATURES}/` },
      to: { path: "^src/(server/|host/|app\\.ts$|cli\\.ts$|extension\\.ts$)" },
    },
    {
      name: "server-below-the-entry-points",
      severity: "error",
      comment: "The HTTP layer is started by the CLI and the host; it never imports them.",
      from: { path: "^src/server/" },
      to: { path: "^src/(host/|cli\\.ts$|extension\\.ts$)" },
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
        "The UI is a client of the server's API; it shares schemas and pure rules (src/shared, the mention ranking among them), never server code.",
      from: { path: "^webview/src/" },
      to: { path: "^src/(?!shared/)" },
    },
    {
      name: "mentions-has-one-door",
      severity: "error",
      comment:
        "The mention engine is a module: from outside src/mentions only its index.ts is reached. Its worker, ranking shards, shared buffers and file watchers stay inside.",
      from: { pathNot: "^src/mentions/" },
      to: { path: "^src/mentions/(?!index\\.ts$)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".svelte", ".mjs", ".cjs", ".json"] },
  },
};
