// What the preset editor's tree is built from: the current project's tool catalog (with gates) and
// its agent files and skills (with the master switches). Re-read when the gates, the switches or the
// MCP servers change. Without a project there is no catalog: the tree says so.
import type { AppEvent } from "$shared/app-events";
import type { CatalogTool, InstructionSources } from "$shared/tools";
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
      const [tools, sources]: [CatalogTool[], InstructionSources | undefined] = query
        ? await Promise.all([
            this.app.api.call("GET /api/tools/catalog", { query }),
            this.app.api.call("GET /api/instructions", { query }),
          ])
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
    if (event.type === "mcp.changed" && (event.data.projectId === undefined || event.data.projectId === current))
      void this.load();
  }

  /** The settings the tree shows, as last seen: any other setting changing costs no request. */
  private shown: string | undefined;

  /**
   * Follows the resolved settings (the app reloads them on every settings event): re-reads when the
   * gates, the master switches, the agent file names or the MCP servers changed, and only then.
   */
  follow(settings: {
    toolGates?: unknown;
    agentFiles?: unknown;
    skills?: unknown;
    agentFileNames?: unknown;
    mcpServers?: unknown;
  }): void {
    const shown = JSON.stringify([
      settings.toolGates,
      settings.agentFiles,
      settings.skills,
      settings.agentFileNames,
      settings.mcpServers,
    ]);
    if (this.shown !== undefined && shown !== this.shown) void this.load();
    this.shown = shown;
  }
}
