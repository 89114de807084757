// The effective chat for one request: a prompt's preset merged onto the chat, then the project's
// gate applied on top. Built in memory; the stored chat is never changed.
import type { ToolGate } from "../shared/settings";
import type { Preset } from "../prompts/preset";
import { toolGate } from "../tools/gate";

export type ChatToggles = { tools: string[] | null; agentFiles: boolean | null; skills: boolean | null };

export type ProjectGate = {
  /** Per-tool gates from settings. */
  gates: Record<string, ToolGate>;
  /** Master switches; false locks the matching group off. */
  agentFiles: boolean;
  skills: boolean;
};

export type EffectiveChat = {
  /** The allowlist after the merge; null inherits every project tool. */
  allowlist: string[] | null;
  /** Tools this request may use: the allowlist (or all project tools) minus those gated off. */
  tools: string[];
  agentFiles: boolean;
  skills: boolean;
};

/**
 * 1. preset tools are unioned onto the chat's allowlist; a chat without one keeps inheriting all;
 * 2./3. the preset's agentFiles/skills become the per-chat toggles (skills can switch on);
 * 4. the project gate is read last and wins: `off` tools stay off, master switches lock groups off.
 */
export function effectiveChat(
  chat: ChatToggles,
  preset: Preset | null,
  gate: ProjectGate,
  projectTools: readonly string[],
): EffectiveChat {
  const allowlist = chat.tools === null ? null : [...new Set([...chat.tools, ...(preset?.tools ?? [])])];
  const candidates = allowlist ?? projectTools;
  const tools = candidates.filter((name) => toolGate(name, gate.gates) !== "off");
  const agentFiles = preset?.agentFiles ?? chat.agentFiles ?? gate.agentFiles;
  const skills = preset?.skills ?? chat.skills ?? gate.skills;
  return {
    allowlist,
    tools,
    agentFiles: gate.agentFiles && agentFiles,
    skills: gate.skills && skills,
  };
}
