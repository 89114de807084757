// The tool gate table of Settings, This project: every tool of the project's catalog (native tools,
// then MCP tools grouped by server), its gate, where that gate comes from, and the PATCH bodies that
// change or reset it. Pure, so it is tested without a browser.
import type { Provenance, SettingsLayerName, ToolGate } from "$shared/settings";
import type { CatalogTool } from "$shared/tools";
import type { SandboxStatus } from "$shared/sandbox";
import { layerOf } from "./provenance";

/**
 * `gate` is the gate in force (the catalog's). `heldAllow`: the project's own settings say `allow`,
 * which does not count (yet) because the user has not trusted the project (contract 7.1).
 */
export type GateRow = {
  name: string;
  description: string;
  gate: ToolGate;
  layer: SettingsLayerName;
  heldAllow: boolean;
  /** `shell` (and stdio MCP tools): whether it runs in the sandbox, and why not (contract 7.5). */
  sandbox?: SandboxStatus;
};
export type GateGroup = { id: string; label: string; rows: GateRow[] };

/**
 * The gate in force is `toolGates` over its older name `tools` (as the server reads them), so its
 * layer is the layer of whichever key holds the tool.
 */
export function gateLayer(provenance: Provenance | undefined, name: string): SettingsLayerName {
  const inToolGates =
    provenance && typeof provenance.toolGates === "object" && Object.hasOwn(provenance.toolGates, name);
  return layerOf(provenance, [inToolGates ? "toolGates" : "tools", name]);
}

type GateLayer = { toolGates?: Record<string, unknown>; tools?: Record<string, unknown> };

/** The gate the project layer itself gives the tool: `toolGates` over its older name `tools`. */
export function projectGate(projectLayer: GateLayer | undefined, name: string): unknown {
  if (projectLayer?.toolGates && Object.hasOwn(projectLayer.toolGates, name)) return projectLayer.toolGates[name];
  if (projectLayer?.tools && Object.hasOwn(projectLayer.tools, name)) return projectLayer.tools[name];
  return undefined;
}

/** The project's own layer and whether the user trusts it (unknown until read: nothing is said then). */
export type ProjectGates = { layer: GateLayer | undefined; trusted: boolean | undefined };

/** The catalog's sandbox flag as a row shows it; nothing for tools the sandbox does not concern. */
function sandboxOf(tool: CatalogTool): { sandbox?: SandboxStatus } {
  if (tool.sandboxed === undefined) return {};
  return {
    sandbox: tool.sandboxed
      ? { sandboxed: true }
      : { sandboxed: false, reason: tool.sandboxReason ?? "no sandbox is available" },
  };
}

/** Native tools first, then one group per MCP server in catalog order. */
export function gateGroups(
  catalog: readonly CatalogTool[],
  provenance: Provenance | undefined,
  project?: ProjectGates,
): GateGroup[] {
  const groups: GateGroup[] = [];
  const byId = new Map<string, GateGroup>();
  for (const tool of catalog) {
    const id = tool.kind === "native" ? "native" : `mcp:${tool.serverId ?? tool.server ?? "?"}`;
    let group = byId.get(id);
    if (!group) {
      group = {
        id,
        label: tool.kind === "native" ? "Native tools" : `MCP: ${tool.server ?? tool.serverId ?? "unknown server"}`,
        rows: [],
      };
      byId.set(id, group);
      groups.push(group);
    }
    const heldAllow =
      project?.trusted === false && tool.gate !== "allow" && projectGate(project.layer, tool.name) === "allow";
    group.rows.push({
      name: tool.name,
      description: tool.description ?? "",
      gate: tool.gate,
      layer: gateLayer(provenance, tool.name),
      heldAllow,
      ...sandboxOf(tool),
    });
  }
  return groups.sort((a, b) => (a.id === "native" ? -1 : b.id === "native" ? 1 : 0));
}

/** The project PATCH that sets one gate. */
export function setGatePatch(name: string, gate: ToolGate): { toolGates: Record<string, ToolGate> } {
  return { toolGates: { [name]: gate } };
}

/**
 * The project PATCH that removes the tool's gate from the project layer, under both names it may be
 * stored as (the older `tools` only when the layer has it, so no empty object is written).
 */
export function resetGatePatch(
  name: string,
  projectLayer: GateLayer | undefined,
): { toolGates?: Record<string, null>; tools?: Record<string, null> } {
  const patch: { toolGates?: Record<string, null>; tools?: Record<string, null> } = {};
  if (projectLayer?.toolGates && Object.hasOwn(projectLayer.toolGates, name)) patch.toolGates = { [name]: null };
  if (projectLayer?.tools && Object.hasOwn(projectLayer.tools, name)) patch.tools = { [name]: null };
  return patch;
}
