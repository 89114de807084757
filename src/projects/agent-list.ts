// Pure edits of `.app.json` `agents` (the Agents page's create, edit and delete): one agent changes,
// by name; the other entries (damaged ones too) and the keys Parley does not know stay as written.
import { AppError, conflict, invalid, notFound } from "../platform/app-error";
import { isPlainObject, setOwn, type JsonObject } from "../settings/settings-merge";
import type { AgentEntry, AgentInput } from "../shared/agents";

/** The fields the page edits; anything else on an entry is kept. */
const EDITABLE = ["description", "model", "tools", "promptId"] as const;

export type AgentIssue = { path: (string | number)[]; message: string };

/** The stored list. `agents` holding something other than a list is refused: Parley never overwrites it. */
export function agentList(raw: JsonObject): unknown[] {
  if (raw.agents === undefined) return [];
  if (Array.isArray(raw.agents)) return raw.agents;
  throw conflict("`agents` in the project settings is not a list; fix it first, Parley will not overwrite it");
}

const isNamed = (name: string) => (entry: unknown) => isPlainObject(entry) && entry.name === name;

/** The (first) entry called `name`, damaged or not. */
export function findAgent(list: unknown[], name: string): JsonObject | undefined {
  return list.find(isNamed(name)) as JsonObject | undefined;
}

/** The entry as written: name and description always, the optional fields only when set, tools once each. */
export function storedAgent(input: AgentInput): AgentEntry {
  return {
    name: input.name,
    description: input.description ?? "",
    ...(input.model !== undefined ? { model: input.model } : {}),
    ...(input.tools !== undefined ? { tools: [...new Set(input.tools)] } : {}),
    ...(input.promptId !== undefined ? { promptId: input.promptId } : {}),
  };
}

/**
 * Adds at the end. A name in use is a 409 whose issue points at the name (the form shows it there): a
 * damaged entry's counts too, as two entries of one name would leave `@name` ambiguous, and so does a
 * name `isReserved` says is Parley's own.
 */
export function addAgent(list: unknown[], input: AgentInput, isReserved: (name: string) => boolean): unknown[] {
  const taken = isReserved(input.name)
    ? `"${input.name}" is the name of one of Parley's own agents; pick another name`
    : list.some(isNamed(input.name))
      ? `an agent named "${input.name}" already exists in this project; pick another name`
      : undefined;
  if (taken) throw new AppError("conflict", taken, [{ path: ["agent", "name"], message: taken }]);
  return [...list, storedAgent(input)];
}

/**
 * Replaces the editable fields of the (first) agent called `name`. The name itself stays: chats,
 * `defaultAgent` and `@name` refer to it.
 */
export function replaceAgent(list: unknown[], name: string, input: AgentInput): unknown[] {
  const at = list.findIndex(isNamed(name));
  if (at < 0) throw notFound(`no agent "${name}" in this project`);
  if (input.name !== name) {
    const message = "an agent's name cannot be changed; create an agent with the new name and delete this one";
    throw invalid(message, [{ path: ["agent", "name"], message }]);
  }
  const entry: JsonObject = { ...(list[at] as JsonObject) };
  for (const key of EDITABLE) delete entry[key];
  for (const [key, value] of Object.entries(storedAgent(input))) setOwn(entry, key, value);
  return list.map((value, i) => (i === at ? entry : value));
}

/** Removes every entry called `name` (a hand-written duplicate too), so the name is gone. */
export function removeAgent(list: unknown[], name: string): unknown[] {
  const kept = list.filter((entry) => !isNamed(name)(entry));
  if (kept.length === list.length) throw notFound(`no agent "${name}" in this project`);
  return kept;
}

/**
 * What is wrong with an agent's tools: a name that is no native tool, and `subagent` (an agent never
 * runs another one). MCP ids pass on their form alone: a server's tools are known once it has started.
 */
export function agentToolIssues(
  tools: readonly string[] | undefined,
  isNative: (name: string) => boolean,
): AgentIssue[] {
  const issues: AgentIssue[] = [];
  (tools ?? []).forEach((tool, index) => {
    const path = ["agent", "tools", index];
    if (tool === "subagent") issues.push({ path, message: "an agent cannot run other agents (subagent)" });
    else if (!tool.startsWith("mcp__") && !isNative(tool))
      issues.push({ path, message: `no tool is called "${tool}"` });
  });
  return issues;
}
