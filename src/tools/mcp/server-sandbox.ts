// Where a stdio MCP server runs (contract 7.5), as rules that need no disk: the sandbox settings in
// force for it, whether it is sandboxed (the catalog's `sandboxed`), the one folder it may write, and
// what its status says about the network. A remote (http, sse) server has no process here: none of
// this concerns it. The manager brings the facts (the project, the working folder, the user's home)
// and does the I/O (./sandboxed-launch.ts).
import { createHash } from "node:crypto";
import type { SandboxAvailability } from "../sandbox/sandbox-rules";
import { sandboxStatus } from "../sandbox/sandbox-rules";
import { isInside } from "../sandbox/path-facts";
import type { SandboxSettings, SandboxStatus } from "../../shared/sandbox";
import type { McpServerConfig } from "./server-config";

/**
 * The sandbox settings of a stdio server: an app server's are the user's own (one process serves every
 * project, so no project's settings decide for it), a project server's are the project's (it runs only
 * once the user trusts the project); the entry's own `sandbox.mode` and `sandbox.network` go on top.
 */
export function serverSandboxSettings(
  config: McpServerConfig,
  user: SandboxSettings,
  project: SandboxSettings,
): SandboxSettings | undefined {
  if (config.entry.transport !== "stdio") return undefined;
  const base = config.scope === "app" ? user : project;
  const own = config.entry.sandbox;
  return { mode: own?.mode ?? base.mode, network: own?.network ?? base.network, hide: base.hide };
}

/**
 * The config with its sandbox settings, and a fingerprint that covers them: a change of `sandbox`
 * (the network switched on, a path hidden) restarts the server, as a change of its entry does.
 */
export function withSandbox(config: McpServerConfig, user: SandboxSettings, project: SandboxSettings): McpServerConfig {
  const sandbox = serverSandboxSettings(config, user, project);
  if (!sandbox) return config;
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([config.fingerprint, sandbox.mode, sandbox.network, sandbox.hide]))
    .digest("hex");
  return { ...config, sandbox, fingerprint };
}

/** Whether the server runs in the sandbox, and why not; undefined for a remote server (no process here). */
export function serverSandboxStatus(
  config: McpServerConfig,
  availability: SandboxAvailability | undefined,
): SandboxStatus | undefined {
  if (!config.sandbox) return undefined;
  if (!availability) return { sandboxed: false, reason: "Parley has not looked for a sandbox on this machine" };
  if (availability.available && config.entry.sandbox?.mode === "off")
    return { sandboxed: false, reason: "the sandbox is off for this server (its sandbox.mode)" };
  return sandboxStatus(config.sandbox, availability);
}

export type WritableFolder = { folder?: string; note?: string };

/**
 * The one folder a sandboxed server may write besides its private `/tmp` and its cache. A project
 * server: its project, as `shell`. An app server belongs to no project: the working folder its entry
 * names (`cwd`), unless that is `/` or holds the user's home (which would open every project and
 * dotfile); with no `cwd` of its own (it then starts in the first project's folder), nothing.
 * `cwd` is the working folder resolved to its real path; `projectDir` the project's real path.
 */
export function serverWritableFolder(
  config: McpServerConfig,
  facts: { projectDir: string; cwd: string; userHome: string },
): WritableFolder {
  if (config.scope === "project") return { folder: facts.projectDir };
  if (config.entry.cwd === undefined) return {};
  if (facts.cwd === "/" || isInside(facts.userHome, facts.cwd))
    return {
      note: `its working folder ${facts.cwd} holds your home folder, so it may write only its temporary folder`,
    };
  return { folder: facts.cwd };
}

/**
 * What the status says about the network of a sandboxed server, if anything: on Linux a stdio
 * transport cannot carry the channel Parley's proxy needs, so a host list means no network at all.
 */
export function networkNote(settings: SandboxSettings, kind: "bwrap" | "seatbelt"): string | undefined {
  if (kind !== "bwrap" || !Array.isArray(settings.network)) return undefined;
  return 'a host list gives a stdio MCP server no network on Linux (it cannot reach Parley\'s proxy): set its sandbox network to "on" or "off"';
}

/**
 * Said after the error of a sandboxed server that failed to start without the network: the likely
 * cause when it downloads its package (npx, uvx) or calls an API as it starts.
 */
export function startFailureHint(config: McpServerConfig, status: SandboxStatus | undefined): string {
  if (!status?.sandboxed || config.sandbox?.network === "on") return "";
  const network = Array.isArray(config.sandbox?.network) ? "only the listed hosts" : "no network";
  return ` (it runs in the sandbox with ${network}; a server that needs the network, npx fetching its package included, needs its sandbox network "on": Settings, MCP servers)`;
}
