// The chat preset's tool tree: native tools, then MCP tools grouped by server, each group with a
// tri-state checkbox; and the synthetic "Agent files" and "Skills" groups. A tool gated `off` and a
// group whose project master switch is off are locked (shown unticked, with the reason): the project
// gate has the last word whatever the preset says. Pure, so the tri-state rules are unit-tested.
import type { CatalogTool, InstructionSources } from "$shared/tools";
import type { PresetDraft } from "./prompt-draft";

export type TreeLeaf = { name: string; description: string; locked?: string };
export type ToolGroup = { id: string; label: string; leaves: TreeLeaf[] };
export type TriState = "all" | "some" | "none";

export const GATE_OFF_REASON = "Off in this project's tool gates: never offered, whatever the preset says.";
export const AGENT_FILES_OFF_REASON = "Agent files are off for this project (Settings, This project).";
export const SKILLS_OFF_REASON = "Skills are off for this project (Settings, This project).";

/** The catalog as groups: native tools first, then one group per MCP server, in catalog order. */
export function toolGroups(catalog: readonly CatalogTool[]): ToolGroup[] {
  const leaf = (tool: CatalogTool): TreeLeaf => ({
    name: tool.name,
    description: tool.description,
    ...(tool.gate === "off" ? { locked: GATE_OFF_REASON } : {}),
  });
  const groups: ToolGroup[] = [
    { id: "native", label: "Native tools", leaves: catalog.filter((t) => t.kind === "native").map(leaf) },
  ];
  const servers = new Map<string, ToolGroup>();
  for (const tool of catalog) {
    if (tool.kind !== "mcp") continue;
    const id = tool.serverId ?? tool.server ?? "mcp";
    let group = servers.get(id);
    if (!group) servers.set(id, (group = { id: `mcp:${id}`, label: `MCP: ${tool.server ?? id}`, leaves: [] }));
    group.leaves.push(leaf(tool));
  }
  return [...groups.filter((g) => g.leaves.length > 0), ...servers.values()];
}

/** What a leaf's checkbox shows: a locked tool is shown unticked (it will not run). */
export function leafChecked(leaf: TreeLeaf, tools: readonly string[]): boolean {
  return !leaf.locked && tools.includes(leaf.name);
}

/** A group's checkbox over its unlocked tools: all ticked, some (indeterminate) or none. */
export function groupState(group: ToolGroup, tools: readonly string[]): TriState {
  const open = group.leaves.filter((l) => !l.locked);
  const ticked = open.filter((l) => tools.includes(l.name)).length;
  if (open.length === 0 || ticked === 0) return "none";
  return ticked === open.length ? "all" : "some";
}

/** Whether a group's own checkbox can be used: not when every tool in it is locked. */
export function groupLocked(group: ToolGroup): boolean {
  return group.leaves.every((l) => l.locked);
}

/**
 * Clicking a group's checkbox: all ticked → none; some or none → all. Locked tools are left as
 * the preset has them (a gate turned back on later finds the preset as it was written).
 */
export function toggleGroup(group: ToolGroup, tools: readonly string[]): string[] {
  const open = group.leaves.filter((l) => !l.locked).map((l) => l.name);
  if (groupState(group, tools) === "all") return tools.filter((t) => !open.includes(t));
  return [...tools, ...open.filter((name) => !tools.includes(name))];
}

export function toggleTool(name: string, tools: readonly string[], on: boolean): string[] {
  if (on) return tools.includes(name) ? [...tools] : [...tools, name];
  return tools.filter((t) => t !== name);
}

/** A synthetic group ("Agent files", "Skills"): one switch, the files it would inject, and its lock. */
export type InstructionGroup = {
  key: "agentFiles" | "skills";
  label: string;
  items: { label: string; detail?: string }[];
  empty: string;
  locked?: string;
};

export function instructionGroups(sources: InstructionSources | undefined): InstructionGroup[] {
  const names = sources?.agentFiles.names ?? ["AGENTS.md"];
  return [
    {
      key: "agentFiles",
      label: "Agent files",
      items: (sources?.agentFiles.files ?? []).map((path) => ({ label: path })),
      empty: `None of ${names.join(", ") || "the agent file names"} exists in this project yet.`,
      ...(sources && !sources.agentFiles.enabled ? { locked: AGENT_FILES_OFF_REASON } : {}),
    },
    {
      key: "skills",
      label: "Skills",
      items: (sources?.skills.items ?? []).map((s) => ({ label: s.name, detail: s.description || s.path })),
      empty: "No skills in this project (.agents/skills/<name>/SKILL.md).",
      ...(sources && !sources.skills.enabled ? { locked: SKILLS_OFF_REASON } : {}),
    },
  ];
}

/** What a synthetic group's checkbox shows: locked groups are shown off (the master switch wins). */
export function instructionChecked(group: InstructionGroup, preset: PresetDraft): boolean {
  return !group.locked && preset[group.key];
}
