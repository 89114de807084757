// /api/instructions: the agent files and skills a chat preset can switch on in a project (the preset
// editor's synthetic groups). A GET: it reads the folder as it is and registers nothing.
import type { Router } from "express";
import { instructionSources } from "./instruction-files";
import type { ProjectRegistry } from "../projects/project-registry";
import type { SettingsService } from "../settings/settings-service";
import { route } from "../platform/http/define-route";
import { routeRouter } from "../platform/http/router";

export function instructionRoutes(deps: { settings: SettingsService; projects: ProjectRegistry }): Router {
  const router = routeRouter();

  route(router, "GET /api/instructions", async ({ query }) =>
    instructionSources(await deps.settings.snapshot(await deps.projects.lookup(query.projectDir))),
  );

  return router;
}
