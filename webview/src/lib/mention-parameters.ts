// The Parameters chip bar under the composer (spec, composer rule 17): which parameters of the tool
// being typed in picker syntax (`@tool:key=` plus a backticked value) are still missing, and what
// tapping one appends.
import type { TextEdit } from "./mention-insert";

export type ToolParameter = { name: string; required: boolean; description?: string };
type Schema = { properties?: Record<string, { description?: unknown }>; required?: unknown };

/** A JSON Schema's parameters in the schema's own order. */
export function toolParameters(schema: unknown): ToolParameter[] {
  if (!schema || typeof schema !== "object") return [];
  const { properties, required } = schema as Schema;
  if (!properties || typeof properties !== "object") return [];
  const needed = new Set(
    Array.isArray(required) ? (required as unknown[]).filter((r): r is string => typeof r === "string") : [],
  );
  return Object.entries(properties).map(([name, property]) => ({
    name,
    required: needed.has(name),
    ...(typeof property?.description === "string" ? { description: property.description } : {}),
  }));
}

/** The tool name of a text in picker syntax (`@tool:` at the very start), else undefined. */
export function pickerTool(text: string): string | undefined {
  return /^@([^\s:@`]+):/.exec(text)?.[1];
}

/** Keys already given as `key=` after the tool name (inside backticked values nothing counts). */
function givenKeys(text: string): Set<string> {
  const keys = new Set<string>();
  const outside = text.replace(/`[^`]*`?/g, "``");
  for (const match of outside.matchAll(/(?:^@[^\s:@`]+:|\s)([A-Za-z_][\w.-]*)=/g)) keys.add(match[1]!);
  return keys;
}

/** The parameters still missing from a picker-syntax text, given the tool's schema; [] when none or not picker syntax. */
export function remainingParameters(text: string, schemaOf: (tool: string) => unknown): ToolParameter[] {
  const tool = pickerTool(text);
  if (!tool) return [];
  const given = givenKeys(text);
  return toolParameters(schemaOf(tool)).filter((p) => !given.has(p.name));
}

/** Appends `key=` and a backtick pair, the caret inside it. */
export function appendParameter(text: string, key: string): TextEdit {
  const base = text.replace(/\s+$/, "");
  const next = `${base} ${key}=\`\``;
  return { text: next, caret: next.length - 1 };
}
