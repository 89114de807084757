// Parley's native tools: the model-facing names a preset may list, their default gates, and what
// the composer shows for them. MCP tools join them as `mcp__<server>__<tool>`.
import type { ToolGate } from "../shared/settings";

export type NativeTool = {
  name: string;
  description: string;
  defaultGate: ToolGate;
  /** Runs straight from the composer (`@shell …`) instead of going to the model. */
  directlyInvocable: boolean;
  /** JSON Schema of the arguments. */
  parameters: { type: "object"; properties: Record<string, { type: string; description: string }>; required?: string[] };
};

export const NATIVE_TOOLS: readonly NativeTool[] = [
  {
    name: "shell",
    description: "Run a shell command in the project folder",
    defaultGate: "ask",
    directlyInvocable: true,
    parameters: { type: "object", properties: { cmd: { type: "string", description: "The command line" }, cwd: { type: "string", description: "Folder, relative to the project" } }, required: ["cmd"] },
  },
  {
    name: "file",
    description: "Read, list, search and edit files in the project",
    defaultGate: "allow",
    directlyInvocable: false,
    parameters: { type: "object", properties: { action: { type: "string", description: "read, list, search or write" }, path: { type: "string", description: "Project-relative path" } }, required: ["action"] },
  },
  {
    name: "subagent",
    description: "Hand a task to a defined agent and get its answer",
    defaultGate: "allow",
    directlyInvocable: false,
    parameters: { type: "object", properties: { agent: { type: "string", description: "Agent name" }, task: { type: "string", description: "What to do" } }, required: ["agent", "task"] },
  },
  {
    name: "report_progress",
    description: "Tell the user how far a long task has come",
    defaultGate: "allow",
    directlyInvocable: false,
    parameters: { type: "object", properties: { message: { type: "string", description: "Progress note" } }, required: ["message"] },
  },
  {
    name: "task",
    description: "Keep a task list for the current work",
    defaultGate: "allow",
    directlyInvocable: false,
    parameters: { type: "object", properties: { items: { type: "string", description: "Tasks, one per line" } } },
  },
  {
    name: "ask_user",
    description: "Ask the user a question and wait for the answer",
    defaultGate: "allow",
    directlyInvocable: false,
    parameters: { type: "object", properties: { question: { type: "string", description: "The question" } }, required: ["question"] },
  },
];

export const NATIVE_TOOL_NAMES: ReadonlySet<string> = new Set(NATIVE_TOOLS.map((t) => t.name));

export function mcpToolId(serverSlug: string, tool: string): string {
  return `mcp__${serverSlug}__${tool}`;
}
