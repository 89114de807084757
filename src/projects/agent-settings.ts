// Changes to one agent of `.app.json` `agents` from the Agents page: only the field asked for changes;
// the entry's other fields, unknown keys and the other (even damaged) entries stay as they are.
import { notFound } from "../platform/app-error";
import { isPlainObject, setOwn, type JsonObject } from "../settings/settings-merge";
import type { ProjectRow } from "./projects-repo";
import type { PromptService } from "../prompts/prompt-service";
import type { SettingsService } from "../settings/settings-service";

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
