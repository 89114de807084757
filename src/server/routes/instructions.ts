// /api/instructions: the agent files and skills a chat preset can switch on in a project (the preset
// editor's synthetic groups). A GET: it reads the folder as it is and registers nothing.
import type { Router } from "express";
import { instructionSources } from "../../services/instruction-files";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import { routeRouter } from "./router";

export function instructionRoutes(deps: { settings: SettingsService; projects: ProjectRegistry }): Router {
  const router = routeRouter();

  router.get("/api/instructions", async (req, res) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(req.query.projectDir));
    res.json(await instructionSources(snapshot));
  });

  return router;
}
