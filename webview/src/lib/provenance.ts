// Where a settings value comes from (default, app, project), as the settings pages say it, and
// whether "Reset to inherited" applies: pure, over GET /api/settings/resolved's `provenance`.
import type { Provenance, SettingsLayerName } from "$shared/settings";

/** The page a value is shown on: its own layer is the one a reset removes the value from. */
export type SettingsPage = "project" | "app";

const RANK: Record<SettingsLayerName, number> = { default: 0, app: 1, project: 2 };

/**
 * The layer of the value at `path`. A path no layer sets is the built-in default (a tool's own gate,
 * say). An object node (a value merged from several layers) answers with its highest layer.
 */
export function layerOf(provenance: Provenance | undefined, path: readonly string[]): SettingsLayerName {
  let node: Provenance | SettingsLayerName | undefined = provenance;
  for (const key of path) {
    if (node === undefined || typeof node === "string") return node ?? "default";
    node = Object.hasOwn(node, key) ? node[key] : undefined;
  }
  if (node === undefined) return "default";
  return typeof node === "string" ? node : highest(node);
}

function highest(node: Provenance): SettingsLayerName {
  let best: SettingsLayerName = "default";
  for (const child of Object.values(node)) {
    const layer = typeof child === "string" ? child : highest(child);
    if (RANK[layer] > RANK[best]) best = layer;
  }
  return best;
}

/** What the badge beside a value says, seen from `page`. */
export function provenanceText(layer: SettingsLayerName, page: SettingsPage): string {
  if (layer === page) return page === "project" ? "Set in this project" : "Set in app defaults";
  return layer === "app" ? "Inherited from app defaults" : "Built-in default";
}

/** Reset to inherited removes the value from the page's own layer: only there is something to remove. */
export function canReset(layer: SettingsLayerName, page: SettingsPage): boolean {
  return layer === page;
}

/** A list setting (tags, agent file names) as typed: comma- or newline-separated, trimmed, no repeats. */
export function readList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}
