// Credentials never live in a settings layer: this splits them out of a PATCH and hides them on the way out.
import { ID_MERGED_KEYS, isPlainObject, type JsonObject } from "./settings-merge";

/** Which stored secret an entry's `apiKey` belongs to. Global: the same for app and project entries. */
export function apiKeySecretName(kind: string, id: string): string {
  return `apiKey/${kind}/${id}`;
}

export type SecretChange = { name: string; value: string | null };

/**
 * Removes every `apiKey` from the `providers`/`models` entries of a patch.
 * Returns the patch to store and the secret changes to apply (`null` removes the secret).
 */
export function extractSecrets(patch: JsonObject): { patch: JsonObject; secrets: SecretChange[] } {
  const secrets: SecretChange[] = [];
  const out: JsonObject = { ...patch };
  for (const kind of ID_MERGED_KEYS) {
    const entries = out[kind];
    if (!Array.isArray(entries)) continue;
    out[kind] = entries.flatMap((entry) => {
      if (!isPlainObject(entry) || !("apiKey" in entry) || typeof entry.id !== "string") return [entry];
      const { apiKey, ...rest } = entry;
      if (typeof apiKey === "string" && apiKey.length > 0) secrets.push({ name: apiKeySecretName(kind, entry.id), value: apiKey });
      else if (apiKey === null || apiKey === "") secrets.push({ name: apiKeySecretName(kind, entry.id), value: null });
      // An entry that only carried a key changes no setting: leave no `{id}` stub behind.
      return Object.keys(rest).length > 1 ? [rest] : [];
    });
  }
  return { patch: out, secrets };
}

/** Internal keys that never leave the server. */
const INTERNAL_KEYS = ["__dbBacked"];

/**
 * Returns a copy safe to send to a client: no internal bookkeeping, and on each
 * `providers`/`models` entry `apiKey` is replaced by `hasApiKey`.
 */
export function redactSettings(settings: JsonObject, hasSecret: (name: string) => boolean): JsonObject {
  const out: JsonObject = { ...settings };
  for (const key of INTERNAL_KEYS) delete out[key];
  for (const kind of ID_MERGED_KEYS) {
    const entries = out[kind];
    if (!Array.isArray(entries)) continue;
    out[kind] = entries.map((entry) => {
      if (!isPlainObject(entry)) return entry;
      const { apiKey, ...rest } = entry;
      const inline = typeof apiKey === "string" && apiKey.length > 0;
      const stored = typeof entry.id === "string" && hasSecret(apiKeySecretName(kind, entry.id));
      return { ...rest, hasApiKey: inline || stored };
    });
  }
  return out;
}

/** The secret names a settings object could reference, so callers can look them up in one go. */
export function referencedSecretNames(...layers: JsonObject[]): string[] {
  const names = new Set<string>();
  for (const layer of layers) {
    for (const kind of ID_MERGED_KEYS) {
      const entries = layer[kind];
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (isPlainObject(entry) && typeof entry.id === "string") names.add(apiKeySecretName(kind, entry.id));
      }
    }
  }
  return [...names];
}
