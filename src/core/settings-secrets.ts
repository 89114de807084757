// Credentials never live in a settings layer: this splits them out of a PATCH and hides them on the way out.
// Two kinds: an entry's `apiKey`, and credential-bearing `headers` (Authorization, x-api-key, cookies, any
// name with token, secret or key in it). Both go to the secret store; a header stays in the layer as the
// placeholder `"<secret>"`, so the layer still says the header is sent.
import { ID_MERGED_KEYS, isPlainObject, setOwn, type JsonObject } from "./settings-merge";

/** What responses show, and what a layer keeps, in place of a secret header value. */
export const SECRET_PLACEHOLDER = "<secret>";

/** The secret slot of an entry's `apiKey`. Global: the same for app and project entries. */
export function apiKeySlot(kind: string, id: string): string {
  return `apiKey/${kind}/${id}`;
}

/** The secret slot of one credential header of an entry (header names are case-insensitive). */
export function headerSlot(kind: string, id: string, header: string): string {
  return `header/${kind}/${id}/${header.toLowerCase()}`;
}

const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key", "api-key", "cookie"]);

/** Whether a header carries a credential and so must be kept as a secret. */
export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || /token|secret|key|auth|pass|credential|session/.test(lower);
}

/** A secret to store (`value`) or remove (`null`), for an entry of `kind` with `id`. */
export type SecretChange = { kind: string; id: string; slot: string; value: string | null };

/**
 * Removes every `apiKey` and credential header value from the `providers`/`models` entries of a patch.
 * Returns the patch to store and the secret changes to apply. A header's value is replaced by the
 * placeholder; a `null` header deletes both. An entry that only carried a key leaves no `{id}` stub.
 */
export function extractSecrets(patch: JsonObject): { patch: JsonObject; secrets: SecretChange[] } {
  const secrets: SecretChange[] = [];
  const out: JsonObject = { ...patch };
  for (const kind of ID_MERGED_KEYS) {
    const entries = Object.hasOwn(out, kind) ? out[kind] : undefined;
    if (!Array.isArray(entries)) continue;
    out[kind] = entries.flatMap((entry) => {
      if (!isPlainObject(entry) || typeof entry.id !== "string") return [entry];
      const id = entry.id;
      const rest: JsonObject = { ...entry };
      if (Object.hasOwn(entry, "apiKey")) {
        const apiKey = entry.apiKey;
        delete rest.apiKey;
        if (typeof apiKey === "string" && apiKey.length > 0) secrets.push({ kind, id, slot: apiKeySlot(kind, id), value: apiKey });
        else if (apiKey === null || apiKey === "") secrets.push({ kind, id, slot: apiKeySlot(kind, id), value: null });
        // An entry that only carried a key changes no setting.
        if (Object.keys(rest).length <= 1) return [];
      }
      if (isPlainObject(entry.headers)) rest.headers = extractHeaderSecrets(kind, id, entry.headers, secrets);
      return [rest];
    });
  }
  return { patch: out, secrets };
}

function extractHeaderSecrets(kind: string, id: string, headers: JsonObject, secrets: SecretChange[]): JsonObject {
  const kept: JsonObject = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!isCredentialHeader(name)) {
      setOwn(kept, name, value);
    } else if (value === null) {
      secrets.push({ kind, id, slot: headerSlot(kind, id, name), value: null });
      setOwn(kept, name, null);
    } else if (typeof value === "string" && value !== SECRET_PLACEHOLDER) {
      secrets.push({ kind, id, slot: headerSlot(kind, id, name), value });
      setOwn(kept, name, SECRET_PLACEHOLDER);
    } else {
      setOwn(kept, name, value);
    }
  }
  return kept;
}

/** Internal keys that never leave the server. */
const INTERNAL_KEYS = ["__dbBacked"];

/**
 * Returns a copy safe to send to a client: no internal bookkeeping; on each `providers`/`models` entry
 * `apiKey` is replaced by `hasApiKey` (`hasKey(kind, id)` says whether one is stored for it), and every
 * credential header value by the placeholder, also one written by hand into a file.
 */
export function redactSettings(settings: JsonObject, hasKey: (kind: string, id: string) => boolean): JsonObject {
  const out: JsonObject = { ...settings };
  for (const key of INTERNAL_KEYS) delete out[key];
  for (const kind of ID_MERGED_KEYS) {
    const entries = Object.hasOwn(out, kind) ? out[kind] : undefined;
    if (!Array.isArray(entries)) continue;
    out[kind] = entries.map((entry) => {
      if (!isPlainObject(entry)) return entry;
      const { apiKey, ...rest } = entry;
      const inline = typeof apiKey === "string" && apiKey.length > 0;
      const stored = typeof entry.id === "string" && hasKey(kind, entry.id);
      if (isPlainObject(rest.headers)) rest.headers = redactHeaders(rest.headers);
      return { ...rest, hasApiKey: inline || stored };
    });
  }
  return out;
}

function redactHeaders(headers: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(headers)) setOwn(out, name, isCredentialHeader(name) && typeof value === "string" ? SECRET_PLACEHOLDER : value);
  return out;
}

/** The `[kind, id]` of every `providers`/`models` entry in some settings objects. */
export function credentialEntries(...layers: JsonObject[]): [string, string][] {
  const found = new Map<string, [string, string]>();
  for (const layer of layers) {
    for (const kind of ID_MERGED_KEYS) {
      const entries = Object.hasOwn(layer, kind) ? layer[kind] : undefined;
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (isPlainObject(entry) && typeof entry.id === "string") found.set(`${kind}\n${entry.id}`, [kind, entry.id]);
      }
    }
  }
  return [...found.values()];
}
