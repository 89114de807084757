// Credentials are bound to the origin they were given for (contract, section 5): a key saved while the
// gateway lived at https://openrouter.ai is only ever sent there, whatever a project's `.app.json` says
// the base URL is. Secret names carry the origin: `<slot>@<origin>`, e.g. `apiKey/providers/gateway@https://openrouter.ai`.
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

/** The secret name of a slot bound to an origin. */
export function boundSecretName(slot: string, origin: string): string {
  return `${slot}@${origin}`;
}

/** Splits a bound secret name; undefined for a legacy (unbound) name. */
export function parseBoundSecretName(name: string): { slot: string; origin: string } | undefined {
  const at = name.lastIndexOf("@");
  if (at < 0) return undefined;
  const origin = name.slice(at + 1);
  return originOf(origin) === origin ? { slot: name.slice(0, at), origin } : undefined;
}

/** The object entries of a settings `providers` or `models` list (anything else in it is skipped). */
export function entriesOf(settings: JsonObject, kind: "providers" | "models"): JsonObject[] {
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
  const providerId = kind === "models" ? modelProviderId(settings, id) : id;
  return originOf(providerEntry(settings, providerId)?.baseUrl);
}
