// The MCP server form as text fields, and the settings entry (or PATCH of one) it stands for. Pure, so
// the line formats and the "what did the edit remove" rules are unit-tested without a browser.
import type { McpServerEntry, McpTransport } from "$shared/settings";
import type { McpServerStatus } from "$shared/api-routes";
import type { McpServerSandbox } from "$shared/sandbox";

export type McpScope = "app" | "project";
export type { McpTransport };

/** What the form's fields hold: the list fields as one entry a line. */
export type McpFormValues = {
  id: string;
  name: string;
  transport: McpTransport;
  command: string;
  args: string;
  env: string;
  cwd: string;
  url: string;
  headers: string;
  /** A stdio server's own sandbox (`sandbox` of its entry), as one choice. */
  sandbox: McpSandboxChoice;
  scope: McpScope;
};

/**
 * A stdio server's own sandbox as the form offers it: as the Sandbox settings say, with or without the
 * network whatever they say, or not sandboxed. `custom`: the entry holds something else (a host list),
 * which the form leaves as it is.
 */
export type McpSandboxChoice = "inherit" | "network" | "offline" | "off" | "custom";

/** The entry's `sandbox` for each choice the form can make (`null` removes the key). */
const SANDBOX_PATCHES: Record<Exclude<McpSandboxChoice, "custom">, Record<string, string | null> | null> = {
  inherit: null,
  network: { mode: null, network: "on" },
  offline: { mode: null, network: "off" },
  off: { mode: "off", network: null },
};

/** The choice an entry's `sandbox` stands for. */
export function sandboxChoice(sandbox: McpServerSandbox | undefined): McpSandboxChoice {
  if (!sandbox || (sandbox.mode === undefined && sandbox.network === undefined)) return "inherit";
  if (sandbox.mode === "off") return "off";
  if (sandbox.mode !== undefined) return "custom";
  return sandbox.network === "on" ? "network" : sandbox.network === "off" ? "offline" : "custom";
}

export const SECRET = "<secret>";

export const STATUS_WORDS: Record<McpServerStatus["status"], string> = {
  starting: "Starting…",
  ready: "Ready",
  error: "Failed",
  stopped: "Not running",
  untrusted: "Waiting for you to trust this project",
};

/** The status in words, where a switched-off server says so rather than "not running". */
export function statusWords(server: Pick<McpServerStatus, "status" | "enabled">): string {
  return !server.enabled && server.status === "stopped" ? "Disabled" : STATUS_WORDS[server.status];
}

export function emptyForm(scope: McpScope): McpFormValues {
  return {
    id: "",
    name: "",
    transport: "stdio",
    command: "",
    args: "",
    env: "",
    cwd: "",
    url: "",
    headers: "",
    sandbox: "inherit",
    scope,
  };
}

/** The form for an entry of a layer; secret values show as the placeholder the server sends. */
export function formFromEntry(entry: McpServerEntry, scope: McpScope): McpFormValues {
  const pairs = (map: Record<string, string> | undefined, sep: string) =>
    Object.entries(map ?? {})
      .map(([k, v]) => `${k}${sep}${v}`)
      .join("\n");
  return {
    id: entry.id,
    name: entry.name ?? "",
    transport: entry.transport,
    command: entry.command ?? "",
    args: (entry.args ?? []).join("\n"),
    env: pairs(entry.env, "="),
    cwd: entry.cwd ?? "",
    url: entry.url ?? "",
    headers: pairs(entry.headers, ": "),
    sandbox: sandboxChoice(entry.sandbox),
    scope,
  };
}

/** Non-empty lines, trimmed: one argument a line. */
export function parseLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** `NAME=value` (env) or `Name: value` (headers) lines; a line without the separator is an error. */
export function parsePairs(
  text: string,
  separator: "=" | ":",
  what: string,
): { pairs: Record<string, string>; errors: string[] } {
  const pairs: Record<string, string> = {};
  const errors: string[] = [];
  for (const line of parseLines(text)) {
    const at = line.indexOf(separator);
    const name = at > 0 ? line.slice(0, at).trim() : "";
    if (!name) {
      errors.push(`${what}: "${line}" is not ${separator === "=" ? "NAME=value" : "Name: value"}`);
      continue;
    }
    pairs[name] = line.slice(at + 1).trim();
  }
  return { pairs, errors };
}

type Patch = Record<string, unknown> & { id: string };

/**
 * The `mcpServers` PATCH entry the form stands for. A new server sends only what is filled in; an
 * edit also sends `null` for every field and every env/header name the user cleared (the merge
 * would otherwise keep them), and `"<secret>"` back for values left alone keeps the stored ones.
 */
export function entryFromForm(values: McpFormValues, original?: McpServerEntry): { entry?: Patch; errors: string[] } {
  const stdio = values.transport === "stdio";
  const env = parsePairs(stdio ? values.env : "", "=", "Environment");
  const headers = parsePairs(stdio ? "" : values.headers, ":", "Headers");
  const errors = [...env.errors, ...headers.errors];
  if (errors.length > 0) return { errors };
  const args = stdio ? parseLines(values.args) : [];
  const fields: Record<string, unknown> = {
    name: values.name.trim() || undefined,
    transport: values.transport,
    command: stdio ? values.command.trim() || undefined : undefined,
    args: args.length > 0 ? args : undefined,
    env: Object.keys(env.pairs).length > 0 ? env.pairs : undefined,
    cwd: stdio ? values.cwd.trim() || undefined : undefined,
    url: stdio ? undefined : values.url.trim() || undefined,
    headers: Object.keys(headers.pairs).length > 0 ? headers.pairs : undefined,
  };
  const entry: Patch = { id: values.id.trim() };
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) entry[key] = value;
    else if (original?.[key] !== undefined && key !== "env" && key !== "headers") entry[key] = null;
  }
  // Names the edit dropped from a map: `null` deletes each one and its stored secret.
  for (const key of ["env", "headers"] as const) {
    const now = (entry[key] ?? {}) as Record<string, string | null>;
    const dropped = Object.keys(original?.[key] ?? {}).filter((name) => !Object.hasOwn(now, name));
    if (dropped.length > 0) entry[key] = { ...now, ...Object.fromEntries(dropped.map((name) => [name, null])) };
  }
  // The sandbox concerns a stdio server only; a custom one (a host list) is left as it is.
  const sandbox = stdio ? values.sandbox : "inherit";
  if (sandbox !== "custom") {
    const patch = SANDBOX_PATCHES[sandbox];
    if (patch) entry.sandbox = patch;
    else if (original?.sandbox !== undefined) entry.sandbox = null;
  }
  return { entry, errors: [] };
}

const FIELD_LABELS: Record<string, string> = {
  id: "Id",
  name: "Name",
  transport: "Transport",
  command: "Command",
  args: "Arguments",
  env: "Environment",
  cwd: "Working folder",
  url: "URL",
  headers: "Headers",
  sandbox: "Sandbox",
};

/** A 400's zod issues as lines naming the form's fields (`mcpServers.0.id` → "Id: …"). */
export function issueLines(issues: unknown[] | undefined): string[] {
  return (issues ?? []).map((issue) => {
    const { path = [], message = "invalid" } = (issue ?? {}) as { path?: (string | number)[]; message?: string };
    const rest = path[0] === "mcpServers" ? path.slice(2) : path;
    const field = typeof rest[0] === "string" ? (FIELD_LABELS[rest[0]] ?? rest[0]) : undefined;
    const detail = rest.slice(1).join(".");
    return field ? `${field}${detail ? ` (${detail})` : ""}: ${message}` : message;
  });
}
