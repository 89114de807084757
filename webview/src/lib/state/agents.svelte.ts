// The current project's agents (`.app.json` key `agents`), for Settings, Agents and the chat's Agent
// card. Re-read when the project's settings change (the file was edited, or the default agent set).
import type { AgentEntry } from "$shared/agents";
import type { AppEvent } from "$shared/app-events";
import type { AppState } from "./app.svelte";

export class AgentsState {
  list = $state.raw<AgentEntry[]>([]);
  error = $state<string | undefined>();

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    const query = this.app.projects.dirQuery;
    try {
      this.list = query ? await this.app.api.call("GET /api/agents", { query }) : [];
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    }
  }

  onAppEvent(event: AppEvent): void {
    if (
      event.type === "settings.changed" &&
      event.data.scope === "project" &&
      event.data.projectId === this.app.projects.currentId
    )
      void this.load();
  }

  byName(name: string | null | undefined): AgentEntry | undefined {
    return name ? this.list.find((agent) => agent.name === name) : undefined;
  }
}
