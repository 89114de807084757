// The sandbox's settings and what the catalog says about it (contract 7.5): `sandbox.mode`,
// `sandbox.network`, `sandbox.hide` on the app and project layers, and the `sandboxed` flag of a tool.
// Shared by the server (validation, the builder) and the UI (the Settings pages).
import { z } from "zod";

export const SANDBOX_MODES = ["on", "off"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** How many host names or hidden paths a layer may list: a long list is a mistake, not a policy. */
const MAX_ENTRIES = 200;

/**
 * A host name the sandbox's network proxy lets a command reach (`registry.npmjs.org`, `10.0.0.5`).
 * A wildcard is refused with a pointer to `"on"`: `*` would quietly allow everything, and
 * `*.example.com` patterns are not matched (an honest refusal beats a rule that does not hold).
 */
export const sandboxHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine((host) => !host.includes("*"), {
    message: 'wildcards are not supported in a host list: list each host name, or set "on" to allow every host',
  })
  .refine((host) => /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.?$/.test(host), {
    message: "a host name: letters, digits, dots and dashes (no scheme, port or path)",
  })
  .transform((host) => host.replace(/\.$/, ""));

/** `"off"` (no network), `"on"` (all of it), or the host names a command may reach through Parley's proxy. */
export const sandboxNetworkSchema = z.union([
  z.enum(["off", "on"]),
  z.array(sandboxHostSchema).min(1, 'an empty host list allows nothing: set "off" instead').max(MAX_ENTRIES),
]);
export type SandboxNetwork = z.infer<typeof sandboxNetworkSchema>;

/** An absolute path to hide inside the sandbox; `/` would hide everything, so it is refused. */
export const sandboxHidePathSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => isAbsolutePath(p), { message: "an absolute path (/… or C:\\…), not a relative one" })
  .refine((p) => !isFileSystemRoot(p), { message: "the root of the file system cannot be hidden" });

/** Settings, `sandbox` (app and project layers); each key optional, the defaults fill in. */
export const sandboxSettingsSchema = z.strictObject({
  /** `"on"`: `shell` runs in the sandbox where one is available; `"off"`: it runs unconfined. */
  mode: z.enum(SANDBOX_MODES).optional(),
  network: sandboxNetworkSchema.optional(),
  /** Paths hidden besides the built-in list (credential folders, Parley's home); never inside the project. */
  hide: z.array(sandboxHidePathSchema).max(MAX_ENTRIES).optional(),
});
export type SandboxSettingsInput = z.infer<typeof sandboxSettingsSchema>;

/**
 * A stdio MCP server's own sandbox settings (`mcpServers[].sandbox`), over the settings in force:
 * `network: "on"` for a server that needs the network (npx downloading its package, an API client),
 * `mode: "off"` for one that cannot work confined (one that talks to the Docker socket). A project's
 * server runs only once the user trusts the project, and the trust covers its whole entry.
 */
export const mcpServerSandboxSchema = z.strictObject({
  mode: z.enum(SANDBOX_MODES).optional(),
  network: sandboxNetworkSchema.optional(),
});
export type McpServerSandbox = z.infer<typeof mcpServerSandboxSchema>;

/** The sandbox settings in force for one project, every key resolved. */
export type SandboxSettings = { mode: SandboxMode; network: SandboxNetwork; hide: string[] };

export const SANDBOX_DEFAULTS: SandboxSettings = { mode: "on", network: "off", hide: [] };

/** Whether a tool runs sandboxed here, and why not (`GET /api/tools/catalog`, the gate rows). */
export const sandboxStatusSchema = z.object({ sandboxed: z.boolean(), reason: z.string().optional() });
export type SandboxStatus = z.infer<typeof sandboxStatusSchema>;

function isAbsolutePath(p: string): boolean {
  return p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");
}

function isFileSystemRoot(p: string): boolean {
  return /^\/+$/.test(p) || /^[A-Za-z]:[\\/]*$/.test(p);
}

/**
 * The entries of `hide` that lie inside the project (or are the project itself): refused on the
 * project layer, since the project is the sandbox's working folder and the `file` tool reads it anyway.
 * Pure: compares normalised paths (POSIX separators; the sandbox exists on Linux and macOS only).
 */
export function hideEntriesInside(hide: readonly string[], projectDir: string): string[] {
  const root = normalise(projectDir);
  return hide.filter((entry) => {
    const p = normalise(entry);
    return p === root || p.startsWith(root === "/" ? "/" : `${root}/`);
  });
}

function normalise(p: string): string {
  const parts: string[] = [];
  for (const part of p.replaceAll("\\", "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}
