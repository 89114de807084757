// The MCP server form as text fields, and the settings entry (or PATCH of one) it stands for. Pure, so
// the line formats and the "what did the edit remove" rules are unit-tested without a browser.
import type { McpServerEntry, McpTransport } from "$shared/settings";
import type { McpServerStatus } from "$shared/api-routes";

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
  scope: McpScope;
};

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
  return { id: "", name: "", transport: "stdio", command: "", args: "", env: "", cwd: "", url: "", headers: "", scope };
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
