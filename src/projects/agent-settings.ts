// Changes to `.app.json` `agents` from the Agents page: create, edit and delete an agent, and set its
// prompt. Each goes through the project's settings write (serialised, atomic, refused while the file
// cannot be parsed); only the agent asked for changes, the other (even damaged) entries stay as written.
import { invalid, notFound } from "../platform/app-error";
import { isPlainObject, setOwn, type JsonObject } from "../settings/settings-merge";
import type { ProjectRow } from "./projects-repo";
import type { PromptService } from "../prompts/prompt-service";
import type { SettingsService } from "../settings/settings-service";
import type { AgentEntry, AgentInput } from "../shared/agents";
import { grantedTool } from "../tools/native-tools";
import { isReservedAgentName } from "./built-in-agents";
import { addAgent, agentList, agentToolIssues, findAgent, removeAgent, replaceAgent, storedAgent } from "./agent-list";

export type AgentWriteDeps = { settings: SettingsService; prompts: PromptService };

export async function createAgent(deps: AgentWriteDeps, project: ProjectRow, input: AgentInput): Promise<AgentEntry> {
  await checkInput(deps, project, input, undefined);
  await deps.settings.updateProjectRaw(project, (raw) => ({
    ...raw,
    agents: addAgent(agentList(raw), input, isReservedAgentName),
  }));
  return storedAgent(input);
}

/** Replaces the agent's fields; its name stays, and keys Parley does not know are kept. */
export async function updateAgent(
  deps: AgentWriteDeps,
  project: ProjectRow,
  name: string,
  input: AgentInput,
): Promise<AgentEntry> {
  await deps.settings.updateProjectRaw(project, async (raw) => {
    const list = agentList(raw);
    const previous = findAgent(list, name);
    if (!previous) throw notFound(`no agent "${name}" in this project`);
    await checkInput(deps, project, input, previous.promptId);
    return { ...raw, agents: replaceAgent(list, name, input) };
  });
  return storedAgent(input);
}

/** Chats and a `defaultAgent` that named it go on without an agent (an unknown name is ignored there). */
export async function deleteAgent(deps: AgentWriteDeps, project: ProjectRow, name: string): Promise<void> {
  await deps.settings.updateProjectRaw(project, (raw) => ({ ...raw, agents: removeAgent(agentList(raw), name) }));
}

/**
 * The tools name real tools, and the prompt exists. A prompt the agent already had is not checked
 * again: one deleted since is ignored when the agent runs, and must not block an edit of its description.
 */
async function checkInput(
  deps: AgentWriteDeps,
  project: ProjectRow,
  input: AgentInput,
  keptPromptId: unknown,
): Promise<void> {
  const issues = agentToolIssues(input.tools, (tool) => grantedTool(tool) !== undefined);
  const { promptId } = input;
  if (
    promptId !== undefined &&
    promptId !== keptPromptId &&
    !deps.prompts.resolve(await deps.settings.snapshot(project), promptId)
  )
    issues.push({ path: ["agent", "promptId"], message: `no prompt "${promptId}" in this project or the app` });
  if (issues.length > 0) throw invalid(issues.map((issue) => issue.message).join("; "), issues);
}

export async function setAgentPrompt(
  settings: SettingsService,
  prompts: PromptService,
  project: ProjectRow,
  agentName: string,
  promptId: string | null,
): Promise<void> {
  if (promptId !== null && !prompts.find(await settings.snapshot(project), promptId))
    throw notFound(`no prompt "${promptId}" in this project or the app`);
  await settings.updateProjectRaw(project, (raw) => {
    const agents = Array.isArray(raw.agents) ? raw.agents : [];
    const at = agents.findIndex((entry) => isPlainObject(entry) && entry.name === agentName);
    if (at < 0) throw notFound(`no agent "${agentName}" in this project`);
    const entry: JsonObject = { ...(agents[at] as JsonObject) };
    if (promptId === null) delete entry.promptId;
    else setOwn(entry, "promptId", promptId);
    return { ...raw, agents: agents.map((value, i) => (i === at ? entry : value)) };
  });
}
