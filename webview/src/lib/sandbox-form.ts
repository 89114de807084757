// The Sandbox section of App defaults and This project (contract 7.5): how its fields read the
// `sandbox` settings of one layer, and how what the user typed becomes a PATCH. Pure; the same zod
// schemas as the server's check the hosts and paths first, so the page says what is wrong in words.
import { sandboxHidePathSchema, sandboxHostSchema, type SandboxSettingsInput } from "$shared/sandbox";

/** The network select: nothing set on this layer, no network, all of it, or a host list. */
export type NetworkChoice = "" | "off" | "on" | "hosts";

export function networkChoice(network: SandboxSettingsInput["network"]): NetworkChoice {
  if (network === undefined) return "";
  return Array.isArray(network) ? "hosts" : network;
}

/** The text a list field shows: one entry per line. */
export const listText = (list: readonly string[] | undefined) => (list ?? []).join("\n");

/** Entries typed one per line (or separated by commas or spaces, for hosts), blanks dropped. */
function entries(text: string, separators: RegExp): string[] {
  return text
    .split(separators)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/** A host list as typed: each name checked as the server will (a wildcard says to choose "All hosts"). */
export function readHosts(text: string): Read<string[]> {
  const hosts = entries(text, /[\s,]+/);
  if (hosts.length === 0) return { ok: false, message: 'List at least one host name, or choose "No network".' };
  const value: string[] = [];
  for (const host of hosts) {
    const parsed = sandboxHostSchema.safeParse(host);
    if (!parsed.success) return { ok: false, message: `${host}: ${parsed.error.issues[0]!.message}` };
    value.push(parsed.data);
  }
  return { ok: true, value };
}

/** Hidden paths as typed, one per line: absolute, never `/`. Empty: none (the key is removed). */
export function readHiddenPaths(text: string): Read<string[] | null> {
  const paths = entries(text, /\r?\n/);
  for (const entry of paths) {
    const parsed = sandboxHidePathSchema.safeParse(entry);
    if (!parsed.success) return { ok: false, message: `${entry}: ${parsed.error.issues[0]!.message}` };
  }
  return { ok: true, value: paths.length > 0 ? paths : null };
}

/** What a failed save says: the first of the server's reasons when it gave any, else its message. */
export function saveProblem(error: unknown): string {
  const issues = (error as { issues?: { message?: unknown }[] } | null)?.issues;
  const first = Array.isArray(issues) ? issues.find((issue) => typeof issue?.message === "string") : undefined;
  return (first?.message as string | undefined) ?? (error as Error).message;
}
