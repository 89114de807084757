// MCP servers: their status per project (`untrusted` until the user trusts the project's own
// servers, see projects/trust-routes.ts), a restart, and what they offer besides tools: resources to
// attach to a message and prompts to fill the composer with.
import type { Router } from "express";
import { invalid } from "../../platform/app-error";
import type { ProjectRegistry } from "../../projects/project-registry";
import type { SettingsService } from "../../settings/settings-service";
import type { McpManager } from "./manager";
import { ToolError } from "../tool-error";
import { route } from "../../platform/http/define-route";
import { routeRouter } from "../../platform/http/router";

export type McpRoutesDeps = { settings: SettingsService; projects: ProjectRegistry; mcp: McpManager };

/** A server that cannot do what was asked (not configured, untrusted, failed) is a 400 that says why. */
async function asRequestError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ToolError) throw invalid(error.message);
    throw error;
  }
}

export function mcpRoutes(deps: McpRoutesDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/mcp/servers", async ({ query }) =>
    deps.mcp.servers(await deps.settings.snapshot(await deps.projects.lookup(query.projectDir))),
  );

  route(router, "POST /api/mcp/servers/:id/restart", async ({ params, query }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(query.projectDir));
    await asRequestError(deps.mcp.restart(snapshot, params.id));
  });

  route(router, "GET /api/mcp/servers/:id/resources", async ({ params, query }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(query.projectDir));
    return asRequestError(deps.mcp.resources(snapshot, params.id));
  });

  route(router, "GET /api/mcp/servers/:id/prompts", async ({ params, query }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(query.projectDir));
    return asRequestError(deps.mcp.prompts(snapshot, params.id));
  });

  route(router, "POST /api/mcp/servers/:id/prompts/:name", async ({ params, query, body }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(query.projectDir));
    return asRequestError(deps.mcp.getPrompt(snapshot, params.id, params.name, body.arguments));
  });

  return router;
}
