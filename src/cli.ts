// `parley serve`: the headless Parley server. Prints one JSON ready line on stdout; logs go to stderr.
// The server (and with it better-sqlite3's native addon) is imported only after the Node version check,
// so an old Node gets one clear line instead of a segmentation fault.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCli, USAGE, type ServeOptions } from "./platform/cli-args";
import { unsupportedNodeMessage } from "./platform/node-version";
import { readyMessage } from "./platform/ready-message";
import { createLogger } from "./platform/logger";

declare const PARLEY_VERSION: string | undefined;
const VERSION = typeof PARLEY_VERSION === "string" ? PARLEY_VERSION : "0.0.0-dev";
const EXIT_USAGE = 2;
const SHUTDOWN_DEADLINE_MS = 4_500;

function fail(message: string, code = EXIT_USAGE): never {
  process.stderr.write(`parley: ${message}\n`);
  process.exit(code);
}

function prepareHome(home: string): void {
  try {
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    fs.accessSync(home, fs.constants.R_OK | fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    fail(`the home folder ${home} cannot be created or is not readable and writable`);
  }
}

function checkProjects(dirs: string[]): void {
  for (const dir of dirs) {
    let isDir = false;
    try {
      isDir = fs.statSync(dir).isDirectory();
    } catch {
      // reported below
    }
    if (!isDir) fail(`--project ${dir} is not a directory`);
  }
}

async function serve(options: ServeOptions): Promise<void> {
  prepareHome(options.home);
  checkProjects(options.projects);
  const log = createLogger();
  const [{ createRuntime }, { listen }] = await Promise.all([import("./app"), import("./server/listen")]);
  const runtime = createRuntime({
    home: options.home,
    log,
    gatewayBaseUrl: process.env.APP_GATEWAY_BASE_URL || undefined,
    gatewayAuthUrl: process.env.APP_GATEWAY_AUTH_URL || undefined,
  });
  const projects = [];
  for (const dir of options.projects) projects.push(await runtime.projects.resolveDir(dir));

  const webviewDir = path.join(__dirname, "..", "media", "webview");
  const server = await listen(runtime, { version: VERSION, webviewDir, host: options.host, port: options.port }).catch(
    (error) => {
      runtime.close();
      fail(`cannot listen on ${options.host}:${options.port ?? "4317+"}: ${(error as Error).message}`, 1);
    },
  );

  // Before the ready line: a client that stops Parley as soon as it reads it gets a clean close.
  const stop = (signal: NodeJS.Signals) => {
    log.info(`${signal} received, shutting down`);
    // File watchers run in child processes that end with this one (a walk under way included).
    const exit = () => process.exit(0);
    setTimeout(exit, SHUTDOWN_DEADLINE_MS).unref();
    void server.close().then(exit);
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));

  if (projects[0]) void runtime.startAppMcpServers(projects[0]).catch(() => {});
  // The line for people first, so it is on stderr by the time a client reads the ready line.
  log.info(readyMessage(VERSION, server.url, runtime.token, process.stderr.isTTY === true));
  process.stdout.write(
    `${JSON.stringify({
      url: server.url,
      token: runtime.token,
      home: options.home,
      projects: projects.map((project) => ({ id: project.id, dir: project.dir })),
    })}\n`,
  );
}

const tooOld = unsupportedNodeMessage(process.versions.node);
if (tooOld) {
  process.stderr.write(`${tooOld}\n`);
  process.exit(EXIT_USAGE);
}

const parsed = parseCli(process.argv.slice(2), process.env, process.cwd(), os.homedir());
if (!parsed.ok) fail(`${parsed.error} (${USAGE})`);
else if (parsed.request.command === "help") process.stdout.write(`${USAGE}\n`);
else if (parsed.request.command === "version") process.stdout.write(`${VERSION}\n`);
else serve(parsed.request).catch((error) => fail((error as Error).message, 1));
