// Credentials are bound to the origin they were given for (contract, section 5): a key saved while the
// gateway lived at https://openrouter.ai is only ever sent there, whatever a project's `.app.json` says
// the base URL is. Secret names carry the origin: `<slot>@<origin>`, e.g. `apiKey/providers/gateway@https://openrouter.ai`.
import { createHash } from "node:crypto";
import { isPlainObject, type JsonObject } from "./settings-merge";

/** `http(s)://host[:port]` of a URL, or undefined when it is not an absolute http(s) URL. */
export function originOf(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a stdio MCP server's secrets are bound to: its command line. A project that points a server id
 * at another command (even one the user trusted) never gets the environment secrets saved for the
 * first one.
 */
export function stdioBinding(command: string, args: readonly string[] = []): string {
  return `stdio://${createHash("sha256")
    .update([command, ...args].join("\0"))
    .digest("hex")
    .slice(0, 24)}`;
}

const STDIO_BINDING = /^stdio:\/\/[0-9a-f]{24}$/;

/** The secret name of a slot bound to an origin. */
export function boundSecretName(slot: string, origin: string): string {
  return `${slot}@${origin}`;
}

/** Splits a bound secret name; undefined for a legacy (unbound) name. */
export function parseBoundSecretName(name: string): { slot: string; origin: string } | undefined {
  const at = name.lastIndexOf("@");
  if (at < 0) return undefined;
  const origin = name.slice(at + 1);
  return originOf(origin) === origin || STDIO_BINDING.test(origin) ? { slot: name.slice(0, at), origin } : undefined;
}

/** The object entries of a settings `providers` or `models` list (anything else in it is skipped). */
export function entriesOf(settings: JsonObject, kind: "providers" | "models" | "mcpServers"): JsonObject[] {
  const list = Object.hasOwn(settings, kind) ? settings[kind] : undefined;
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}

/** The provider entry with `id` in resolved settings. */
export function providerEntry(settings: JsonObject, id: string): JsonObject | undefined {
  return entriesOf(settings, "providers").find((entry) => entry.id === id);
}

/** The model entry with `id` in resolved settings. */
export function modelEntry(settings: JsonObject, id: string): JsonObject | undefined {
  return entriesOf(settings, "models").find((entry) => entry.id === id);
}

/** The provider a model entry talks to (`gateway` unless it names another). */
export function modelProviderId(settings: JsonObject, modelId: string): string {
  const model = modelEntry(settings, modelId);
  return typeof model?.provider === "string" ? model.provider : "gateway";
}

/** The origin requests for a `providers` or `models` entry go to, in resolved settings. */
export function entryOrigin(settings: JsonObject, kind: string, id: string): string | undefined {
  if (kind === "mcpServers") {
    const server = entriesOf(settings, "mcpServers").find((entry) => entry.id === id);
    if (server?.transport === "http" || server?.transport === "sse") return originOf(server.url);
    if (server?.transport === "stdio" && typeof server.command === "string") {
      return stdioBinding(
        server.command,
        Array.isArray(server.args) ? server.args.filter((a): a is string => typeof a === "string") : [],
      );
    }
    return undefined;
  }
  const providerId = kind === "models" ? modelProviderId(settings, id) : id;
  return originOf(providerEntry(settings, providerId)?.baseUrl);
}
