// A prompt's chat preset, normalised to `{tools?, agentFiles?, skills?}` with the spec's collapse rule.
import { NATIVE_TOOL_NAMES } from "../tools/native-tools";

export type Preset = { tools?: string[]; agentFiles?: boolean; skills?: boolean };

/**
 * Keeps known tool names once each (native tools, and MCP ids the project's catalog knows), in
 * their first order. Collapses to null when no tools remain and neither toggle is given; an
 * explicit `agentFiles: false` or `skills: false` is a choice and is kept.
 */
export function normalizePreset(
  input: unknown,
  isKnownMcpTool: (name: string) => boolean = () => false,
): Preset | null {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return null;
  const raw = input as Record<string, unknown>;
  const tools = Array.isArray(raw.tools)
    ? [
        ...new Set(
          raw.tools.filter(
            (t): t is string => typeof t === "string" && (NATIVE_TOOL_NAMES.has(t) || isKnownMcpTool(t)),
          ),
        ),
      ]
    : [];
  const preset: Preset = {};
  if (tools.length > 0) preset.tools = tools;
  if (typeof raw.agentFiles === "boolean") preset.agentFiles = raw.agentFiles;
  if (typeof raw.skills === "boolean") preset.skills = raw.skills;
  return Object.keys(preset).length === 0 ? null : preset;
}
