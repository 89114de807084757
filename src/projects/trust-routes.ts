// A project's trust (contract 7.1): what the repository's `.app.json` brings that waits for it, and the
// switch (which answers `{trusted}`; the state is a GET away). Trusting starts the project's MCP
// servers that waited; distrust stops them.
import type { Router } from "express";
import { conflict } from "../platform/app-error";
import type { EventBus } from "../platform/event-bus";
import type { ProjectRegistry } from "./project-registry";
import type { ProjectTrust } from "./project-trust";
import type { SettingsService } from "../settings/settings-service";
import type { McpManager } from "../tools/mcp/manager";
import { route } from "../platform/http/define-route";
import { routeRouter } from "../platform/http/router";

export type TrustRoutesDeps = {
  settings: SettingsService;
  projects: ProjectRegistry;
  mcp: McpManager;
  trust: ProjectTrust;
  events: EventBus;
};

export function trustRoutes(deps: TrustRoutesDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/projects/:id/trust", async ({ params }) => {
    const project = deps.projects.byId(params.id);
    const layer = await deps.settings.readProjectLayer(project);
    return deps.trust.state(project.id, layer.raw);
  });

  route(router, "POST /api/projects/:id/trust", async ({ params, body }) => {
    const project = deps.projects.byId(params.id);
    const layer = await deps.settings.readProjectLayer(project);
    if (body.trusted && deps.trust.restricted) {
      throw conflict(
        "VS Code's Restricted Mode is on for this workspace: trust the workspace in VS Code (Manage Workspace Trust) first",
      );
    }
    if (body.trusted && !layer.raw)
      throw conflict(
        `${layer.error ?? "the project settings cannot be read"}; fix the file before trusting what it holds`,
      );
    if (body.trusted) deps.trust.trust(project.id, layer.raw);
    else deps.trust.distrust(project.id);
    deps.mcp.ensure(await deps.settings.snapshot(project));
    deps.events.publish({ type: "mcp.changed", data: { projectId: project.id } });
    deps.events.publish({ type: "settings.changed", data: { scope: "project", projectId: project.id } });
    return { trusted: deps.trust.isTrusted(project.id, layer.raw) };
  });

  return router;
}
