// The current project's tool catalog (native and MCP tools with the gate in force), for the gate
// table of Settings, This project. Read again when the project's settings or its MCP servers change.
import type { AppEvent } from "$shared/app-events";
import type { CatalogTool } from "$shared/tools";
import type { AppState } from "./app.svelte";

export class ToolCatalogState {
  tools = $state.raw<CatalogTool[]>([]);
  loadError = $state<string | undefined>();
  private reads = 0;

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    const read = ++this.reads;
    try {
      const tools = await this.app.api.call("GET /api/tools/catalog", { query: this.app.projects.dirQuery ?? {} });
      if (read !== this.reads) return;
      this.tools = tools;
      this.loadError = undefined;
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  onAppEvent(event: AppEvent): void {
    const current = this.app.projects.currentId;
    if (event.type === "settings.changed" && (event.data.scope === "app" || event.data.projectId === current))
      void this.load();
    if (event.type === "mcp.changed" && (event.data.projectId === undefined || event.data.projectId === current))
      void this.load();
  }
}
