// Which MCP servers a project has (contract 6.4): the `mcpServers` entries of its resolved settings,
// each with the layer that defined it (a project-defined stdio server runs a command that came with a
// repository, so it needs the user's trust) and a fingerprint that changes when its config does.
import { createHash } from "node:crypto";
import type { SandboxSettings } from "../../shared/sandbox";
import { mcpServerEntrySchema, type McpServerEntry, type ResolvedSettings } from "../../shared/settings";
import { isPlainObject, type JsonObject } from "../../settings/settings-merge";

export type McpServerConfig = {
  entry: McpServerEntry;
  scope: "app" | "project";
  /** Changes whenever the config (placeholders included) changes: a changed server is restarted. */
  fingerprint: string;
  /** A stdio server's sandbox settings in force (./server-sandbox.ts `withSandbox`), which the fingerprint covers. */
  sandbox?: SandboxSettings;
};

/** Every valid server entry; `projectLayer` (the project's own validated layer) says which are the project's. */
export function configuredServers(settings: ResolvedSettings, projectLayer: JsonObject): McpServerConfig[] {
  const own = new Set(
    (Array.isArray(projectLayer.mcpServers) ? projectLayer.mcpServers : []).filter(isPlainObject).map((e) => e.id),
  );
  const list = Array.isArray(settings.mcpServers) ? settings.mcpServers : [];
  return list.flatMap((raw) => {
    const parsed = parsedEntry(raw);
    if (!parsed) return [];
    return [{ ...parsed, scope: own.has(parsed.entry.id) ? ("project" as const) : ("app" as const) }];
  });
}

type ParsedEntry = { entry: McpServerEntry; fingerprint: string };

/**
 * Each entry object's parse and fingerprint, kept with it: resolved settings are frozen and handed back
 * as the same objects while unchanged, so a turn (which reads a new snapshot) does not validate and
 * hash every server again before its first token. An entry that does not validate is kept as null.
 */
const parsedEntries = new WeakMap<object, ParsedEntry | null>();

function parsedEntry(raw: unknown): ParsedEntry | null {
  const known = typeof raw === "object" && raw !== null ? parsedEntries.get(raw) : undefined;
  if (known !== undefined) return known;
  const parsed = mcpServerEntrySchema.safeParse(raw);
  const result = parsed.success
    ? { entry: parsed.data, fingerprint: createHash("sha256").update(JSON.stringify(parsed.data)).digest("hex") }
    : null;
  if (typeof raw === "object" && raw !== null && Object.isFrozen(raw)) parsedEntries.set(raw, result);
  return result;
}

/** The instance key: an app server is shared by every project; a project server is the project's own. */
export function instanceKey(config: McpServerConfig, projectId: string): string {
  return config.scope === "app" ? `app:${config.entry.id}` : `project:${projectId}:${config.entry.id}`;
}

/**
 * Where a server's tool list is cached: its instance and what decides which program or endpoint it
 * is (transport, command, args, cwd, url; not its name or whether it is enabled, nor env or header
 * values, which are secrets), so an edited server never lists another program's tools and a project
 * never sees another's.
 */
export function toolCacheKey(instanceKey: string, config: McpServerConfig): string {
  const { transport, command, args, cwd, url } = config.entry;
  const launch = createHash("sha256")
    .update(JSON.stringify([transport, command ?? null, args ?? [], cwd ?? null, url ?? null]))
    .digest("hex");
  return `${instanceKey}#${launch}`;
}

/** What the trust prompt shows: the command line a project wants to run. */
export function commandLine(entry: McpServerEntry): string {
  return [entry.command ?? "", ...(entry.args ?? [])]
    .map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part))
    .join(" ");
}
