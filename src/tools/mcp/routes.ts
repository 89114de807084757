// MCP servers: their status per project (`untrusted` until the user trusts the project's own
// servers, see routes/trust.ts) and a restart.
import type { Router } from "express";
import { invalid } from "../../platform/app-error";
import type { ProjectRegistry } from "../../projects/project-registry";
import type { SettingsService } from "../../settings/settings-service";
import type { McpManager } from "./manager";
import { ToolError } from "../tool-error";
import { route } from "../../platform/http/define-route";
import { routeRouter } from "../../platform/http/router";

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
