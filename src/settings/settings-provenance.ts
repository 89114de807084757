// Which layer each resolved settings value comes from (defaults < app < project), for the settings
// pages' "from app" / "reset to inherited". Pure, and built by the same rules as the merge: plain
// objects merge key by key, anything else (scalars, arrays, id-merged lists) is replaced whole.
import { isPlainObject, ownValue, setOwn, type JsonObject } from "./settings-merge";
import type { Provenance, SettingsLayerName } from "../shared/settings";

export type NamedLayer = { name: SettingsLayerName; value: JsonObject };

/** The provenance tree of `layers` (lowest first): a layer name at each value, objects mirrored. */
export function settingsProvenance(layers: readonly NamedLayer[]): Provenance {
  let tree: Provenance = {};
  for (const layer of layers) tree = mark(tree, layer.value, layer.name) as Provenance;
  return tree;
}

function mark(
  node: Provenance | SettingsLayerName | undefined,
  value: unknown,
  layer: SettingsLayerName,
): Provenance | SettingsLayerName {
  if (!isPlainObject(value)) return layer;
  // An object over a scalar starts afresh, as the merge does (it merges into {}).
  const out: Provenance = {};
  if (node !== undefined && typeof node === "object")
    for (const [key, child] of Object.entries(node)) setOwn(out, key, child);
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined) continue;
    setOwn(out, key, mark(ownValue(out, key), child, layer));
  }
  return out;
}
