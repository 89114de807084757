// The MCP servers page: each server's status, the entries of the app and project layers (what Edit
// starts from), the servers' tools with their gates, and the changes made there. Reloads on
// `mcp.changed` (a server started, failed, was trusted…) and on the settings changes it shows. A
// server's resources and prompts are read when asked for.
import type { McpPrompt, McpResource, McpServerStatus } from "$shared/api-routes";
import type { AppEvent } from "$shared/app-events";
import type { McpServerEntry, ToolGate } from "$shared/settings";
import type { CatalogTool } from "$shared/tools";
import type { McpScope } from "../mcp-form";
import type { AppState } from "./app.svelte";

export class McpState {
  servers = $state.raw<McpServerStatus[]>([]);
  tools = $state.raw<CatalogTool[]>([]);
  appEntries = $state.raw<McpServerEntry[]>([]);
  projectEntries = $state.raw<McpServerEntry[]>([]);
  loadError = $state<string | undefined>();
  /** Reads overlap (a burst of `mcp.changed`): only the latest one's answer is shown. */
  private serversRead = 0;
  private layersRead = 0;

  constructor(private readonly app: AppState) {}

  async load(): Promise<void> {
    try {
      // Without a project the list is built from the app layer, so that comes first.
      if (this.app.projects.dirQuery) await Promise.all([this.loadServers(), this.loadLayers()]);
      else await this.loadLayers().then(() => this.loadServers());
      this.loadError = undefined;
    } catch (error) {
      this.loadError = (error as Error).message;
    }
  }

  onAppEvent(event: AppEvent): void {
    const current = this.app.projects.currentId;
    if (event.type === "mcp.changed" && (event.data.projectId === undefined || event.data.projectId === current)) {
      void this.loadServers().catch((error: Error) => (this.loadError = error.message));
    }
    if (event.type === "settings.changed" && (event.data.scope === "app" || event.data.projectId === current))
      void this.load();
  }

  entry(scope: McpScope, id: string): McpServerEntry | undefined {
    return (scope === "app" ? this.appEntries : this.projectEntries).find((e) => e.id === id);
  }

  toolsOf(serverId: string): CatalogTool[] {
    return this.tools.filter((t) => t.serverId === serverId);
  }

  /** Without a project there is no status to ask for: the app layer's entries, as configured. */
  private async loadServers(): Promise<void> {
    const query = this.app.projects.dirQuery;
    const read = ++this.serversRead;
    const [servers, catalog] = await Promise.all([
      query ? this.app.api.call("GET /api/mcp/servers", { query }) : Promise.resolve(undefined),
      this.app.api.call("GET /api/tools/catalog", { query: query ?? {} }),
    ]);
    if (read !== this.serversRead) return;
    this.servers =
      servers ??
      this.appEntries.map((e) => ({
        id: e.id,
        name: e.name ?? e.id,
        transport: e.transport,
        scope: "app" as const,
        status: "stopped" as const,
        toolCount: 0,
        resourceCount: 0,
        promptCount: 0,
        enabled: e.enabled !== false,
      }));
    this.tools = catalog.filter((t) => t.kind === "mcp");
  }

  private async loadLayers(): Promise<void> {
    const query = this.app.projects.dirQuery;
    const read = ++this.layersRead;
    const [appLayer, projectLayer] = await Promise.all([
      this.app.api.call("GET /api/settings/app"),
      query ? this.app.api.call("GET /api/settings/project", { query }) : Promise.resolve(undefined),
    ]);
    if (read !== this.layersRead) return;
    this.appEntries = appLayer.mcpServers ?? [];
    this.projectEntries = projectLayer?.project.mcpServers ?? [];
  }

  /** A change to one layer's `mcpServers`; the page follows from the events (or a reload without them). */
  async patchEntry(scope: McpScope, entry: Record<string, unknown> & { id: string }): Promise<void> {
    const body = { mcpServers: [entry] };
    await this.app.change(
      () => (scope === "app" ? this.app.settings.patchApp(body) : this.app.settings.patchProject(body)),
      () => this.load(),
    );
  }

  setEnabled(server: McpServerStatus, enabled: boolean): Promise<void> {
    return this.patchEntry(server.scope, { id: server.id, enabled: enabled ? null : false });
  }

  remove(server: McpServerStatus): Promise<void> {
    return this.patchEntry(server.scope, { id: server.id, $remove: true });
  }

  async restart(id: string): Promise<void> {
    const query = this.app.projects.dirQuery;
    if (!query) return;
    await this.app.change(
      () => this.app.api.call("POST /api/mcp/servers/:id/restart", { params: { id }, query }),
      () => this.loadServers(),
    );
  }

  /** What a ready server offers besides tools (read when the user opens that part of its row). */
  async offers(id: string): Promise<{ resources: McpResource[]; prompts: McpPrompt[] }> {
    const query = this.app.projects.dirQuery;
    if (!query) return { resources: [], prompts: [] };
    const [resources, prompts] = await Promise.all([
      this.app.api.call("GET /api/mcp/servers/:id/resources", { params: { id }, query }),
      this.app.api.call("GET /api/mcp/servers/:id/prompts", { params: { id }, query }),
    ]);
    return { resources, prompts };
  }

  /** The gate is the project's when a project is open (it wins there), else the app's. */
  async setGate(tool: string, gate: ToolGate): Promise<void> {
    const body = { toolGates: { [tool]: gate } };
    await this.app.change(
      () => (this.app.projects.dirQuery ? this.app.settings.patchProject(body) : this.app.settings.patchApp(body)),
      () => this.loadServers(),
    );
  }
}
