// Deep merge for settings layers and PATCH bodies. Pure: inputs are never mutated.
//
// Rules (shared by layering and PATCH so the two can never disagree):
// - plain objects merge key by key, recursively;
// - `providers` and `models` arrays merge entry by entry, matched on `id`;
// - any other array, and any scalar, replaces the earlier value;
// - in a patch, `null` deletes the key, and an entry `{id, $remove: true}` deletes that entry.

export type JsonObject = Record<string, unknown>;

/** Settings keys whose arrays hold entries identified by `id`. */
export const ID_MERGED_KEYS = new Set(["providers", "models", "mcpServers"]);

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Applies `patch` onto `base`; `null` deletes (the PATCH semantics). */
export function applyPatch(base: JsonObject, patch: JsonObject): JsonObject {
  return mergeObjects(base, patch, true);
}

/** Overlays a settings layer onto a lower one; `null` values are kept as plain values. */
export function overlay(lower: JsonObject, upper: JsonObject): JsonObject {
  return mergeObjects(lower, upper, false);
}

/** Resolves layers from lowest to highest priority: defaults < app < project. */
export function resolveLayers(...layers: JsonObject[]): JsonObject {
  return layers.reduce<JsonObject>((acc, layer) => overlay(acc, layer), {});
}

/** The value of an own property, never one inherited from `Object.prototype` (`toString`, `__proto__`, …). */
export function ownValue<T>(target: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** Assigns as an own data property, so a `__proto__` key in a file is data, never a prototype. */
export function setOwn(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function mergeObjects(base: JsonObject, patch: JsonObject, nullDeletes: boolean): JsonObject {
  const out = copyOwn(base);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null && nullDeletes) {
      delete out[key];
    } else if (ID_MERGED_KEYS.has(key) && Array.isArray(value)) {
      const current = ownValue(out, key);
      setOwn(out, key, mergeEntriesById(Array.isArray(current) ? current : [], value, nullDeletes));
    } else if (isPlainObject(value)) {
      // Merge into {} when there is nothing to merge with, so nested nulls still delete.
      const current = ownValue(out, key);
      setOwn(out, key, mergeObjects(isPlainObject(current) ? current : {}, value, nullDeletes));
    } else {
      setOwn(out, key, structuredClone(value));
    }
  }
  return out;
}

/** A shallow copy that keeps a `__proto__` key as data (object spread would too; this says so). */
function copyOwn(source: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(source)) setOwn(out, key, value);
  return out;
}

function entryId(entry: unknown): string | undefined {
  return isPlainObject(entry) && typeof entry.id === "string" ? entry.id : undefined;
}

function mergeEntriesById(base: unknown[], patch: unknown[], nullDeletes: boolean): unknown[] {
  const out = base.map((entry) => structuredClone(entry));
  for (const incoming of patch) {
    const id = entryId(incoming);
    const at = id === undefined ? -1 : out.findIndex((entry) => entryId(entry) === id);
    const { $remove, ...fields } = isPlainObject(incoming) ? incoming : { $remove: undefined };
    if ($remove === true) {
      if (at >= 0) out.splice(at, 1);
    } else if (at >= 0) {
      out[at] = mergeObjects(out[at] as JsonObject, fields, nullDeletes);
    } else if (isPlainObject(incoming)) {
      out.push(mergeObjects({}, fields, nullDeletes));
    } else {
      out.push(structuredClone(incoming));
    }
  }
  return out;
}

/** Freezes `value` and everything it holds, so a value shared by many readers cannot be changed by one. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
