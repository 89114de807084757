// The agent form's draft (Settings, Agents): made from a listed agent or blank, turned into what POST
// and PUT /api/agents take, checked with the server's own schema first, and the server's issues
// (under `agent.<field>`) placed at the field they concern.
import { agentInputSchema, type AgentEntry, type AgentInput } from "$shared/agents";

export type AgentDraft = {
  name: string;
  description: string;
  /** Empty: no pin (the chat's model). */
  model: string;
  /** `all`: every project tool (no `tools` key); `only`: the ticked ones, none ticked meaning no tool. */
  toolsMode: "all" | "only";
  tools: string[];
  /** Empty: no prompt. */
  promptId: string;
};

export type AgentField = "name" | "description" | "model" | "tools" | "promptId";
export type AgentFieldErrors = Partial<Record<AgentField, string>> & { form?: string[] };

const LABELS: Record<AgentField, string> = {
  name: "Name",
  description: "Description",
  model: "Model pin",
  tools: "Tools",
  promptId: "Prompt",
};

export function blankAgentDraft(): AgentDraft {
  return { name: "", description: "", model: "", toolsMode: "all", tools: [], promptId: "" };
}

export function draftFromAgent(agent: AgentEntry): AgentDraft {
  return {
    name: agent.name,
    description: agent.description,
    model: agent.model ?? "",
    toolsMode: agent.tools ? "only" : "all",
    tools: [...(agent.tools ?? [])],
    promptId: agent.promptId ?? "",
  };
}

export function inputFromDraft(draft: AgentDraft): AgentInput {
  const model = draft.model.trim();
  const description = draft.description.trim();
  return {
    name: draft.name.trim(),
    ...(description ? { description } : {}),
    ...(model ? { model } : {}),
    ...(draft.toolsMode === "only" ? { tools: [...draft.tools] } : {}),
    ...(draft.promptId ? { promptId: draft.promptId } : {}),
  };
}

/** `file` for reading only, a grant a tool list may hold (the server's READ_ONLY_FILE, src/tools/native-tools.ts). */
export const READ_ONLY_FILE = "file:read";

export type OfferedTool = { name: string; note?: string };

/**
 * The tools the allowlist offers, in the catalog's order: not `subagent` (an agent never runs another),
 * `file:read` after `file`, and any tool the agent lists that the catalog does not have now (an MCP
 * server not started yet), so that saving keeps it.
 */
export function offeredAgentTools(catalog: readonly string[], chosen: readonly string[]): OfferedTool[] {
  const offered: OfferedTool[] = catalog
    .filter((name) => name !== "subagent")
    .flatMap((name) => (name === "file" ? [{ name }, { name: READ_ONLY_FILE, note: "reading only" }] : [{ name }]));
  const known = new Set(offered.map((tool) => tool.name));
  return [
    ...offered,
    ...chosen.filter((name) => !known.has(name)).map((name) => ({ name, note: "not in the catalog now" })),
  ];
}

/** Issues (zod's or the server's) by field; what names no field is said for the whole form. */
export function agentFieldErrors(issues: readonly unknown[] | undefined): AgentFieldErrors {
  const errors: AgentFieldErrors = {};
  for (const issue of issues ?? []) {
    const { path = [], message = "invalid" } = (issue ?? {}) as { path?: readonly PropertyKey[]; message?: string };
    const rest = path[0] === "agent" ? path.slice(1) : path;
    const field = typeof rest[0] === "string" && rest[0] in LABELS ? (rest[0] as AgentField) : undefined;
    if (field) errors[field] ??= `${LABELS[field]}: ${message}`;
    else (errors.form ??= []).push(message);
  }
  return errors;
}

/** The draft checked against the schema the server uses, before anything is sent. */
export function validateAgentDraft(draft: AgentDraft): AgentFieldErrors {
  const parsed = agentInputSchema.safeParse(inputFromDraft(draft));
  const errors = parsed.success ? {} : agentFieldErrors(parsed.error.issues);
  // The schema's rule about characters says little to someone who has not typed a name yet.
  if (!draft.name.trim()) errors.name = "Name: give the agent a name.";
  return errors;
}
