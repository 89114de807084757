// Starting a stdio MCP server inside the sandbox (contract 7.5): the hook McpConnection calls with the
// server's command just before it spawns it, which hands back bubblewrap's (or sandbox-exec's) command
// line. What the server may write (./server-sandbox.ts), a cache folder of its own that outlives it
// (so npx does not download its package at every start), and the checks that need the disk: a working
// folder the sandbox hides cannot be given, and a command that does not exist is said so plainly
// (inside bubblewrap it would only be bwrap's "execvp" line on stderr).
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { findExecutable } from "../sandbox/availability";
import type { Sandbox } from "../sandbox/sandbox";
import type { StdioLaunch } from "./connection";
import type { McpServerConfig } from "./server-config";
import { networkNote, serverSandboxStatus, serverWritableFolder } from "./server-sandbox";

export type SandboxedLaunchInput = {
  sandbox: Sandbox;
  /** Where each server's cache folder is made (in Parley's home, which the sandbox hides otherwise). */
  cacheRoot: string;
  /** The server's config, its sandbox settings resolved (`withSandbox`). */
  config: McpServerConfig;
  /** The server's instance (`instanceKey`): one cache per instance, never shared between servers. */
  instanceKey: string;
  projectDir: string;
  /** The server's working folder. */
  cwd: string;
};

/**
 * The launch hook for a server that runs sandboxed, with what its status should say (`warning`);
 * nothing for one that runs as configured (a remote server, the sandbox off or missing); an Error for
 * one that cannot start in the sandbox as configured.
 */
export async function sandboxedLaunch(
  input: SandboxedLaunchInput,
): Promise<{ launch?: StdioLaunch; warning?: string } | Error> {
  const { sandbox, config } = input;
  const settings = config.sandbox;
  const availability = await sandbox.availability();
  if (!settings || !availability.available || !serverSandboxStatus(config, availability)?.sandboxed) return {};
  const [projectDir, cwd] = await Promise.all([fs.realpath(input.projectDir), fs.realpath(input.cwd)]);
  const writable = serverWritableFolder(config, { projectDir, cwd, userHome: sandbox.userHome });
  // A project server works inside its project, which stays visible even where a hidden folder holds it.
  const hidden = config.scope === "app" ? await sandbox.hiddenHolding(cwd, settings) : undefined;
  if (hidden)
    return new Error(
      `its working folder ${cwd} is inside ${hidden}, which the sandbox hides; give it another cwd, or set its sandbox mode to "off"`,
    );
  const cacheDir = path.join(
    input.cacheRoot,
    createHash("sha256").update(input.instanceKey).digest("hex").slice(0, 16),
  );
  const warning = [writable.note, networkNote(settings, availability.kind)].filter(Boolean).join("; ");
  const launch: StdioLaunch = async (plain) => {
    if (!(await commandExists(plain.command, cwd, plain.env.PATH ?? "")))
      throw Object.assign(new Error(`${plain.command}: not found`), { code: "ENOENT" });
    await fs.mkdir(cacheDir, { recursive: true, mode: 0o700 });
    const visible = await codeUnderTmp([plain.command, ...plain.args], cwd);
    return sandbox.command({
      ...plain,
      cwd,
      ...(visible.length > 0 ? { visible } : {}),
      ...(writable.folder === undefined ? {} : { projectRoot: writable.folder }),
      cacheDir,
      settings,
      // The SDK's stdio transport spawns the child without the IPC channel the proxy bridge needs.
      canBridge: false,
    });
  };
  return { launch, ...(warning ? { warning } : {}) };
}

/**
 * The server's own code where the private `/tmp` would cover it: for a command or argument that is an
 * existing path under the temporary folder (`node /tmp/work/server.mjs`), the folder right under it
 * that holds it (`/tmp/work`, so its `node_modules` resolve too), real paths. It is shown read-only;
 * hidden paths inside it stay hidden.
 */
async function codeUnderTmp(words: readonly string[], cwd: string): Promise<string[]> {
  /** The folder right under `/tmp` holding `file`, as a real path. */
  const holder = async (file: string) => {
    if (!file.startsWith("/tmp/")) return undefined;
    return fs.realpath(path.join("/tmp", file.slice("/tmp/".length).split("/")[0]!)).catch(() => undefined);
  };
  const folders = await Promise.all(
    words
      .filter((word) => word.startsWith("/") || word.startsWith("./") || word.startsWith("../"))
      .flatMap((word) => {
        const given = path.resolve(cwd, word);
        // The path as given (the server is told it) and where it leads (a link out of /tmp, or into it).
        return [holder(given), fs.realpath(given).then(holder, () => undefined)];
      }),
  );
  return [...new Set(folders.filter((folder): folder is string => folder !== undefined))];
}

/** A command with a slash is a path (from the working folder); a bare name is looked up on `PATH`. */
async function commandExists(command: string, cwd: string, searchPath: string): Promise<boolean> {
  if (!command.includes("/")) return (await findExecutable(command, searchPath)) !== undefined;
  try {
    await fs.access(path.resolve(cwd, command), fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
