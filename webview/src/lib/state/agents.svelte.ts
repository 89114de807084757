// The current project's agents (`.app.json` key `agents`), for Settings, Agents and the chat's Agent
// card, and the page's create, edit and delete. Re-read when the project's settings change (the file
// was edited, an agent written, or the default agent set).
import type { AgentEntry, AgentInput } from "$shared/agents";
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

  /** The list follows from `settings.changed` (or a reload while the event stream is down). */
  async create(agent: AgentInput): Promise<void> {
    const projectDir = this.projectDir();
    await this.app.change(
      () => this.app.api.call("POST /api/agents", { body: { projectDir, agent } }),
      () => this.load(),
    );
  }

  async update(name: string, agent: AgentInput): Promise<void> {
    const projectDir = this.projectDir();
    await this.app.change(
      () => this.app.api.call("PUT /api/agents/:name", { params: { name }, body: { projectDir, agent } }),
      () => this.load(),
    );
  }

  async remove(name: string): Promise<void> {
    const projectDir = this.projectDir();
    await this.app.change(
      () => this.app.api.call("DELETE /api/agents/:name", { params: { name }, query: { projectDir } }),
      () => this.load(),
    );
  }

  private projectDir(): string {
    const dir = this.app.projects.current?.dir;
    if (!dir) throw new Error("no project is open");
    return dir;
  }
}
