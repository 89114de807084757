// The project's agents and custom actions, from `.app.json` (damaged entries skipped and reported).
import { actionSchema, agentSchema, type Action, type Agent } from "../shared/agents";
import type { LayerIssue } from "../core/settings-validate";
import type { ProjectRow } from "../store/projects-repo";
import { parseEntries } from "./project-entries";
import type { SettingsService } from "./settings-service";

export class ProjectAgents {
  constructor(private readonly settings: SettingsService) {}

  async agents(project: ProjectRow): Promise<{ agents: Agent[]; issues: LayerIssue[] }> {
    const layer = await this.settings.readProjectLayer(project);
    const { items, issues } = parseEntries(layer.raw?.agents, agentSchema, "agents");
    return { agents: items.map((i) => i.value), issues };
  }

  async actions(project: ProjectRow): Promise<{ actions: Action[]; issues: LayerIssue[] }> {
    const layer = await this.settings.readProjectLayer(project);
    const { items, issues } = parseEntries(layer.raw?.actions, actionSchema, "actions");
    return { actions: items.map((i) => i.value), issues };
  }

  /** The agent a chat runs as: its own choice, else the project's default agent. */
  async selected(project: ProjectRow, chatAgent: string | null, defaultAgent: unknown): Promise<Agent | undefined> {
    const name = chatAgent ?? (typeof defaultAgent === "string" ? defaultAgent : undefined);
    if (!name) return undefined;
    return (await this.agents(project)).agents.find((agent) => agent.name === name);
  }
}
