// MCP servers: their status per project (`untrusted` until the user trusts the project's own
// servers, see routes/trust.ts) and a restart.
import type { Router } from "express";
import { invalid } from "../../core/app-error";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import type { McpManager } from "../../tools/mcp/manager";
import { ToolError } from "../../tools/tool-error";
import { routeRouter } from "./router";

export type McpRoutesDeps = { settings: SettingsService; projects: ProjectRegistry; mcp: McpManager };

export function mcpRoutes(deps: McpRoutesDeps): Router {
  const router = routeRouter();

  router.get("/api/mcp/servers", async (req, res) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(req.query.projectDir));
    res.json(deps.mcp.servers(snapshot));
  });

  router.post("/api/mcp/servers/:id/restart", async (req, res) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(req.query.projectDir));
    try {
      await deps.mcp.restart(snapshot, req.params.id);
    } catch (error) {
      if (error instanceof ToolError) throw invalid(error.message);
      throw error;
    }
    res.status(204).end();
  });

  return router;
}
