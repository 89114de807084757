// Parley's native tools (contract, section 6.1): the model-facing names a preset, an allowlist, an
// agent or a gate may list, their default gates, and their arguments. Each tool's arguments are one
// zod schema, from which the JSON Schema sent upstream (and shown by the composer) is derived, so what
// the model is told and what Parley accepts can never drift apart. MCP tools join them as
// `mcp__<server>__<tool>`.
import { z } from "zod";
import type { ToolGate } from "../shared/settings";

export const SHELL_MAX_TIMEOUT_MS = 600_000;

export const shellArgsSchema = z.object({
  cmd: z.string().min(1).describe("The command line, run with /bin/sh -c"),
  cwd: z.string().optional().describe("Folder to run in, relative to the project (default: the project folder)"),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .max(SHELL_MAX_TIMEOUT_MS)
    .optional()
    .describe("Time limit in milliseconds (default 120000)"),
});

export const FILE_ACTIONS = ["read", "list", "search", "write", "edit"] as const;

export const fileArgsSchema = z.object({
  action: z.enum(FILE_ACTIONS).describe("read, list, search, write or edit"),
  path: z.string().optional().describe("Project-relative path (a folder for list and search)"),
  offset: z.number().int().min(1).optional().describe("read: first line, 1-based"),
  limit: z.number().int().min(1).max(10_000).optional().describe("read: how many lines; search: how many hits"),
  pattern: z.string().min(1).optional().describe("search: a regular expression"),
  glob: z.string().min(1).optional().describe("search: only files matching this glob, e.g. *.ts"),
  content: z.string().optional().describe("write: the whole new content"),
  oldText: z.string().min(1).optional().describe("edit: the exact text to replace"),
  newText: z.string().optional().describe("edit: the replacement"),
  replaceAll: z.boolean().optional().describe("edit: replace every occurrence instead of exactly one"),
});

/** The `file` actions that only read: all that `file:read` allows. */
export const FILE_READ_ACTIONS = ["read", "list", "search"] as const;

/** `file` as `file:read` offers it: the reading actions, without the arguments only writes take. */
export const fileReadArgsSchema = fileArgsSchema
  .omit({ content: true, oldText: true, newText: true, replaceAll: true })
  .extend({ action: z.enum(FILE_READ_ACTIONS).describe("read, list or search") });

export const subagentArgsSchema = z.object({
  agent: z.string().min(1).describe("The name of a defined agent"),
  task: z.string().min(1).describe("What the agent should do"),
});

export const reportProgressArgsSchema = z.object({
  message: z.string().min(1).describe("A short progress note for the user"),
});

export const taskItemSchema = z.object({
  title: z.string().min(1),
  status: z.enum(["pending", "in_progress", "done"]),
});
export const taskArgsSchema = z.object({
  items: z.array(taskItemSchema).max(200).describe("The whole task list, replacing the previous one"),
});

export const askUserArgsSchema = z.object({
  question: z.string().min(1).describe("The question"),
  choices: z.array(z.string().min(1)).max(20).optional().describe("Answers to offer as buttons"),
});

/** The most of a body `web_fetch` reads (contract 7.5); `maxBytes` may ask for less. */
export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024;

export const webFetchArgsSchema = z.object({
  url: z.string().min(1).max(8192).describe("The http or https URL to GET"),
  maxBytes: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Read at most this many bytes of the body (default and most: ${WEB_FETCH_MAX_BYTES})`),
});

/** A JSON Schema object as tools carry it (upstream `parameters`, MCP `inputSchema`). */
export type ToolParameters = {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
};

export type NativeTool = {
  name: string;
  description: string;
  defaultGate: ToolGate;
  /** Runs straight from the composer (`@shell …`) instead of going to the model. */
  directlyInvocable: boolean;
  /** The argument a bare composer text fills (`@shell ls` is `{cmd: "ls"}`). */
  positional?: string;
  /** What Parley accepts. */
  args: z.ZodType;
  /** The same, as the JSON Schema the model and the composer see. */
  parameters: ToolParameters;
};

function jsonSchema(schema: z.ZodType): ToolParameters {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest as ToolParameters;
}

/** `positional`: the tool runs straight from the composer, a bare text filling that argument. */
function tool(
  name: string,
  description: string,
  defaultGate: ToolGate,
  args: z.ZodType,
  positional?: string,
): NativeTool {
  return {
    name,
    description,
    defaultGate,
    directlyInvocable: positional !== undefined,
    ...(positional ? { positional } : {}),
    args,
    parameters: jsonSchema(args),
  };
}

export const NATIVE_TOOLS: readonly NativeTool[] = [
  tool(
    "shell",
    "Run a shell command in the project folder and get its exit code and output",
    "ask",
    shellArgsSchema,
    "cmd",
  ),
  tool("file", "Read, list, search, write or edit files in the project", "ask", fileArgsSchema),
  tool("subagent", "Hand a task to a defined agent and get its final answer", "allow", subagentArgsSchema),
  tool("report_progress", "Tell the user how far a long task has come", "allow", reportProgressArgsSchema),
  tool("task", "Keep the task list for the current work (send the whole list each time)", "allow", taskArgsSchema),
  tool("ask_user", "Ask the user a question and wait for the answer", "allow", askUserArgsSchema),
  tool(
    "web_fetch",
    "GET a web page or text file over http(s): HTML comes back as markdown, with the final URL, status and type",
    "ask",
    webFetchArgsSchema,
    "url",
  ),
];

export const NATIVE_TOOL_NAMES: ReadonlySet<string> = new Set(NATIVE_TOOLS.map((t) => t.name));

export function nativeTool(name: string): NativeTool | undefined {
  return NATIVE_TOOLS.find((t) => t.name === name);
}

/**
 * A narrower grant of `file` for a tool list (a turn's, an agent's): the model is offered `file` with
 * its reading actions only, and a call that writes is refused before it runs. Plan mode reads with it.
 * Never a tool of its own: the model calls `file`, and its gate is `file`'s.
 */
export const READ_ONLY_FILE = "file:read";

const readOnlyFileTool = tool(
  "file",
  "Read, list or search files in the project (reading only: nothing can be written here)",
  "ask",
  fileReadArgsSchema,
);

/** What a tool list entry offers the model: a native tool, or `file:read`'s reading-only `file`. */
export function grantedTool(entry: string): NativeTool | undefined {
  return entry === READ_ONLY_FILE ? readOnlyFileTool : nativeTool(entry);
}

/** The tool whose gate a tool list entry follows (`file:read` follows `file`). */
export function grantedToolName(entry: string): string {
  return entry === READ_ONLY_FILE ? "file" : entry;
}

/** Whether a call to `file` may only read: its list grants `file:read`, not `file` itself. */
export function fileIsReadOnly(tools: ReadonlySet<string>): boolean {
  return tools.has(READ_ONLY_FILE) && !tools.has("file");
}

export function mcpToolId(serverSlug: string, tool: string): string {
  return `mcp__${serverSlug}__${tool}`;
}
