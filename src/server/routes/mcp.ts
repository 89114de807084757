// MCP servers: their status per project (`untrusted` until the user trusts a project-defined
// command), a restart, and the project trust switch.
import type { Router } from "express";
import { z } from "zod";
import { invalid } from "../../core/app-error";
import type { EventBus } from "../../services/event-bus";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import type { ProjectTrust } from "../../store/project-trust";
import type { McpManager } from "../../tools/mcp/manager";
import { ToolError } from "../../tools/tool-error";
import { parseWith } from "../middleware/validation";
import { routeRouter } from "./router";

export type McpRoutesDeps = { settings: SettingsService; projects: ProjectRegistry; mcp: McpManager; trust: ProjectTrust; events: EventBus };

const trustBodySchema = z.strictObject({ trusted: z.boolean() });

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

  router.post("/api/projects/:id/trust", async (req, res) => {
    const body = parseWith(trustBodySchema, req.body);
    const project = deps.projects.byId(req.params.id);
    deps.trust.set(project.id, body.trusted);
    const snapshot = await deps.settings.snapshot(project);
    // Trusting starts the project's commands that waited for it; distrust stops them.
    deps.mcp.ensure(snapshot);
    deps.events.publish({ type: "mcp.changed", data: { projectId: project.id } });
    res.json({ trusted: body.trusted });
  });

  return router;
}
