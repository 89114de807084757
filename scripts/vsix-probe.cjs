// Loads an unpacked Parley vsix the way VS Code's extension host does, under whichever Node runs this
// file (check-vsix.mjs runs it under each Node it is given): activates dist/extension.cjs against a
// stand-in `vscode` module, which opens the app database through the packaged better-sqlite3 and
// starts the server and its mention worker; reads the database over Parley's API and directly; then
// starts the packaged file watcher process and waits for it to report a file created after it started.
// Usage: node vsix-probe.cjs <unpacked extension folder> [scratch folder]. Prints one JSON line; exits 1
// on a failure.
"use strict";
const { fork } = require("node:child_process");
const fs = require("node:fs");
const Module = require("node:module");
const os = require("node:os");
const path = require("node:path");

const extDir = path.resolve(process.argv[2] ?? "");
// Under the caller's scratch folder when it gives one, so that a crash (which skips the clean-up) leaves nothing.
const scratch = process.argv[3] ? path.resolve(process.argv[3]) : os.tmpdir();
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(scratch, "parley-vsix-probe-")));
const home = path.join(tmp, "home");
const workspace = path.join(tmp, "workspace");
fs.mkdirSync(workspace);
fs.writeFileSync(path.join(workspace, "README.md"), "# A workspace\n");
process.env.APP_HOME = home;

const report = { node: process.version, napi: process.versions.napi, platform: `${process.platform}-${process.arch}` };
let output = "";

// --- The part of VS Code's API that activation touches; anything else is a no-op. ---
const disposable = { dispose() {} };
const event = () => disposable;
class Uri {
  constructor(fsPath, text) {
    this.scheme = text ? new URL(text).protocol.slice(0, -1) : "file";
    this.fsPath = fsPath;
    this.path = fsPath;
    this.text = text;
  }
  toString() {
    return this.text ?? `file://${this.fsPath}`;
  }
  static file(fsPath) {
    return new Uri(fsPath);
  }
  static parse(text) {
    return new Uri(text.startsWith("file:") ? new URL(text).pathname : text, text);
  }
  static joinPath(base, ...parts) {
    return new Uri(path.join(base.fsPath, ...parts));
  }
  static from({ path: fsPath }) {
    return new Uri(fsPath);
  }
}
/** VS Code's event source, as far as activation uses it (the worktree diff documents' change event). */
class EventEmitter {
  event = event;
  fire() {}
  dispose() {}
}
const providers = new Map();
const lenient = (api) => new Proxy(api, { get: (target, key) => (key in target ? target[key] : () => disposable) });
const vscode = {
  Uri,
  EventEmitter,
  window: lenient({
    createOutputChannel: () =>
      lenient({ append: (text) => (output += text), appendLine: (text) => (output += `${text}\n`) }),
    registerWebviewViewProvider: (id, provider) => (providers.set(id, provider), disposable),
    showInformationMessage: async () => undefined,
    showErrorMessage: async () => undefined,
  }),
  workspace: lenient({
    getConfiguration: () => ({ get: () => undefined }),
    workspaceFolders: [{ uri: Uri.file(workspace), name: "workspace", index: 0 }],
    isTrusted: true,
    onDidChangeWorkspaceFolders: event,
    onDidGrantWorkspaceTrust: event,
  }),
  commands: lenient({ executeCommand: async () => undefined }),
  env: lenient({ asExternalUri: async (uri) => uri, openExternal: async () => true }),
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === "vscode" ? vscode : load.call(this, request, ...rest);
};
const secrets = new Map();
const context = {
  subscriptions: [],
  extensionUri: Uri.file(extDir),
  extensionPath: extDir,
  secrets: {
    get: async (key) => secrets.get(key),
    store: async (key, value) => void secrets.set(key, value),
    delete: async (key) => void secrets.delete(key),
    onDidChange: event,
  },
};

/** The panel's bootstrap (server URL and token), as the webview would receive it. */
async function resolvePanel() {
  const view = {
    visible: true,
    onDidChangeVisibility: event,
    onDidDispose: event,
    webview: {
      options: {},
      html: "",
      cspSource: "vscode-webview:",
      onDidReceiveMessage: event,
      asWebviewUri: (uri) => uri,
      postMessage: async () => true,
    },
  };
  await providers.get("parley.chat").resolveWebviewView(view);
  const json = /<script id="parley-bootstrap"[^>]*>(.*?)<\/script>/s.exec(view.webview.html)?.[1];
  if (!json) throw new Error("the panel's HTML has no bootstrap");
  return JSON.parse(json);
}

async function api(bootstrap, route) {
  const response = await fetch(`${bootstrap.serverUrl}${route}`, {
    headers: { authorization: `Bearer ${bootstrap.token}` },
  });
  if (!response.ok) throw new Error(`GET ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The packaged watcher process, as the mention worker starts it; resolves with what it saw. */
function watch(dir) {
  const child = fork(path.join(extDir, "dist", "file-watcher-process.cjs"), [dir], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "advanced",
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
  const created = path.join(dir, "created-after-watch-started.txt");
  const seen = new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ loaded: false, error: "no answer from the watcher in 10 s" }), 10_000);
    const done = (result) => (clearTimeout(timer), resolve(result));
    child.on("message", (message) => {
      if (message.type === "ready") fs.writeFileSync(created, "new\n");
      else if (message.type === "failed") done({ loaded: false, error: message.message });
      else if (message.type === "events" && message.events.some((e) => e.type === "create" && e.path === created))
        done({ loaded: true, sawCreatedFile: true });
    });
    child.on("exit", (code, signal) => {
      const lines = stderr.trim().split("\n");
      const error = lines.find((line) => /^(Uncaught )?\w*Error\b/.test(line)) ?? lines.pop();
      setImmediate(() => done({ loaded: false, error: `exited (${signal ?? code}): ${error}` }));
    });
  });
  child.send({ dir, ignoredDirNames: [] });
  return seen.finally(() => child.kill("SIGKILL"));
}

async function main() {
  const extension = require(path.join(extDir, "dist", "extension.cjs"));
  await extension.activate(context);
  const addons = Object.keys(require.cache).filter((file) => file.endsWith(".node"));
  const bootstrap = await resolvePanel();
  const projects = await api(bootstrap, "/api/projects");
  const search = await api(bootstrap, `/api/mentions/search?projectDir=${encodeURIComponent(workspace)}&q=README`);

  const Database = require(path.join(extDir, "node_modules", "better-sqlite3"));
  const db = new Database(path.join(home, "store.sqlite"), { readonly: true, fileMustExist: true });
  const database = {
    addon: addons.map((file) => path.relative(extDir, file)),
    journalMode: db.pragma("journal_mode", { simple: true }),
    userVersion: db.pragma("user_version", { simple: true }),
    tables: db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get().n,
    projectListed: projects.some((project) => project.dir === workspace),
  };
  db.close();
  report.database = database;
  report.mentions = { found: JSON.stringify(search).includes("README.md") };
  report.watcher = await watch(workspace);
  await extension.deactivate();
}

main()
  .then(
    () => 0,
    (error) => {
      report.error = error instanceof Error ? error.stack : String(error);
      report.log = output.slice(-2000);
      return 1;
    },
  )
  .then((code) => {
    fs.rmSync(tmp, { recursive: true, force: true });
    process.stdout.write(`${JSON.stringify(report)}\n`);
    process.exit(code);
  });
