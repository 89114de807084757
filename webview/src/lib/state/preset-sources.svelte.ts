// What the preset editor's tree is built from: the current project's tool catalog (with gates) and
// its agent files and skills (with the master switches). Re-read when the gates, the switches or the
// MCP servers change. Without a project there is no catalog: the tree says so.
import type { AppEvent } from "../../../../src/shared/app-events";
import type { CatalogTool, InstructionSources } from "../../../../src/shared/tools";
import type { AppState } from "./app.svelte";

export class PresetSourcesState {
  tools = $state.raw<CatalogTool[]>([]);
  sources = $state.raw<InstructionSources | undefined>();
  error = $state<string | undefined>();
  loaded = $state(false);
  private reads = 0;

  constructor(private readonly app: AppState) {}

  get hasProject(): boolean {
    return this.app.projects.dirQuery !== undefined;
  }

  async load(): Promise<void> {
    const query = this.app.projects.dirQuery;
    const read = ++this.reads;
    try {
      const [tools, sources] = query
        ? await Promise.all([this.app.api.call("GET /api/tools/catalog", { query }), this.app.api.call("GET /api/instructions", { query })])
        : [[], undefined];
      if (read !== this.reads) return;
      this.tools = tools;
      this.sources = sources;
      this.error = undefined;
    } catch (error) {
      if (read === this.reads) this.error = (error as Error).message;
    } finally {
      if (read === this.reads) this.loaded = true;
    }
  }

  onAppEvent(event: AppEvent): void {
    const current = this.app.projects.currentId;
    if (event.type === "settings.changed" && (event.data.scope === "app" || event.data.projectId === current)) void this.load();
    if (event.type === "mcp.changed" && (event.data.projectId === undefined || event.data.projectId === current)) void this.load();
  }
}
