// MCP servers: their status per project (`untrusted` until the user trusts the project's own
// servers, see routes/trust.ts) and a restart.
import type { Router } from "express";
import { invalid } from "../../core/app-error";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import type { McpManager } from "../../tools/mcp/manager";
import { ToolError } from "../../tools/tool-error";
import { route } from "../define-route";
import { routeRouter } from "./router";

export type McpRoutesDeps = { settings: SettingsService; projects: ProjectRegistry; mcp: McpManager };

export function mcpRoutes(deps: McpRoutesDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/mcp/servers", async ({ query }) =>
    deps.mcp.servers(await deps.settings.snapshot(await deps.projects.lookup(query.projectDir))),
  );

  route(router, "POST /api/mcp/servers/:id/restart", async ({ params, query }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(query.projectDir));
    try {
      await deps.mcp.restart(snapshot, params.id);
    } catch (error) {
      if (error instanceof ToolError) throw invalid(error.message);
      throw error;
    }
  });

  return router;
}
