// Credentials never live in a settings layer: this splits them out of a PATCH and hides them on the way out.
// Two kinds: an entry's `apiKey`, and credential-bearing `headers` (Authorization, x-api-key, cookies, any
// name with token, secret or key in it). Both go to the secret store; a header stays in the layer as the
// placeholder `"<secret>"`, so the layer still says the header is sent.
import { isPlainObject, setOwn, type JsonObject } from "./settings-merge";

/** Entries that carry an `apiKey` and credential headers. */
const KEYED_KINDS = ["providers", "models"] as const;
/** MCP servers: every `env` and `headers` value is a secret (contract 6.4). */
const MCP_KIND = "mcpServers";

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

/** The secret slot of one environment variable of an MCP server. */
export function envSlot(id: string, name: string): string {
  return `env/mcpServers/${id}/${name}`;
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
  const servers = Object.hasOwn(out, MCP_KIND) ? out[MCP_KIND] : undefined;
  if (Array.isArray(servers)) {
    out[MCP_KIND] = servers.map((entry) => {
      if (!isPlainObject(entry) || typeof entry.id !== "string") return entry;
      const rest: JsonObject = { ...entry };
      const id = entry.id;
      if (isPlainObject(entry.env))
        rest.env = extractValues(
          entry.env,
          (name) => envSlot(id, name),
          () => true,
          MCP_KIND,
          id,
          secrets,
        );
      if (isPlainObject(entry.headers))
        rest.headers = extractValues(
          entry.headers,
          (name) => headerSlot(MCP_KIND, id, name),
          () => true,
          MCP_KIND,
          id,
          secrets,
        );
      return rest;
    });
  }
  for (const kind of KEYED_KINDS) {
    const entries = Object.hasOwn(out, kind) ? out[kind] : undefined;
    if (!Array.isArray(entries)) continue;
    out[kind] = entries.flatMap((entry) => {
      if (!isPlainObject(entry) || typeof entry.id !== "string") return [entry];
      const id = entry.id;
      const rest: JsonObject = { ...entry };
      if (Object.hasOwn(entry, "apiKey")) {
        const apiKey = entry.apiKey;
        delete rest.apiKey;
        if (typeof apiKey === "string" && apiKey.length > 0)
          secrets.push({ kind, id, slot: apiKeySlot(kind, id), value: apiKey });
        else if (apiKey === null || apiKey === "") secrets.push({ kind, id, slot: apiKeySlot(kind, id), value: null });
        // An entry that only carried a key changes no setting.
        if (Object.keys(rest).length <= 1) return [];
      }
      if (isPlainObject(entry.headers))
        rest.headers = extractValues(
          entry.headers,
          (name) => headerSlot(kind, id, name),
          isCredentialHeader,
          kind,
          id,
          secrets,
        );
      return [rest];
    });
  }
  return { patch: out, secrets };
}

/** Moves the secret values of a map (`isSecret` says which) into secret changes, keeping placeholders. */
function extractValues(
  values: JsonObject,
  slotOf: (name: string) => string,
  isSecret: (name: string) => boolean,
  kind: string,
  id: string,
  secrets: SecretChange[],
): JsonObject {
  const kept: JsonObject = {};
  for (const [name, value] of Object.entries(values)) {
    if (!isSecret(name)) {
      setOwn(kept, name, value);
    } else if (value === null) {
      secrets.push({ kind, id, slot: slotOf(name), value: null });
      setOwn(kept, name, null);
    } else if (typeof value === "string" && value !== SECRET_PLACEHOLDER) {
      secrets.push({ kind, id, slot: slotOf(name), value });
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
  const servers = Object.hasOwn(out, MCP_KIND) ? out[MCP_KIND] : undefined;
  if (Array.isArray(servers)) {
    out[MCP_KIND] = servers.map((entry) => {
      if (!isPlainObject(entry)) return entry;
      const rest: JsonObject = { ...entry };
      if (isPlainObject(entry.env)) rest.env = redactValues(entry.env, () => true);
      if (isPlainObject(entry.headers)) rest.headers = redactValues(entry.headers, () => true);
      return rest;
    });
  }
  for (const kind of KEYED_KINDS) {
    const entries = Object.hasOwn(out, kind) ? out[kind] : undefined;
    if (!Array.isArray(entries)) continue;
    out[kind] = entries.map((entry) => {
      if (!isPlainObject(entry)) return entry;
      const { apiKey, ...rest } = entry;
      const inline = typeof apiKey === "string" && apiKey.length > 0;
      const stored = typeof entry.id === "string" && hasKey(kind, entry.id);
      if (isPlainObject(rest.headers)) rest.headers = redactValues(rest.headers, isCredentialHeader);
      return { ...rest, hasApiKey: inline || stored };
    });
  }
  return out;
}

function redactValues(values: JsonObject, isSecret: (name: string) => boolean): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(values))
    setOwn(out, name, isSecret(name) && typeof value === "string" ? SECRET_PLACEHOLDER : value);
  return out;
}

/** The `[kind, id]` of every `providers`/`models` entry in some settings objects. */
export function credentialEntries(...layers: JsonObject[]): [string, string][] {
  const found = new Map<string, [string, string]>();
  for (const layer of layers) {
    for (const kind of KEYED_KINDS) {
      const entries = Object.hasOwn(layer, kind) ? layer[kind] : undefined;
      if (!Array.isArray(entries)) continue;
      for (const entry of entries) {
        if (isPlainObject(entry) && typeof entry.id === "string") found.set(`${kind}\n${entry.id}`, [kind, entry.id]);
      }
    }
  }
  return [...found.values()];
}
