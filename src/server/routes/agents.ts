// /api/agents and /api/actions: the project's agents and saved custom actions.
import type { Router } from "express";
import { routeRouter } from "./router";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";

export function agentRoutes(deps: { settings: SettingsService; projects: ProjectRegistry }): Router {
  const router = routeRouter();
  const snapshot = async (projectDir: unknown) => deps.settings.snapshot(await deps.projects.lookup(projectDir));

  router.get("/api/agents", async (req, res) => {
    const { agents, issues } = (await snapshot(req.query.projectDir)).agents;
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    res.json(agents.map(({ name, description, model, tools, promptId }) => ({ name, description, ...(model ? { model } : {}), ...(tools ? { tools } : {}), ...(promptId ? { promptId } : {}) })));
  });

  router.get("/api/actions", async (req, res) => {
    const { actions, issues } = (await snapshot(req.query.projectDir)).actions;
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    res.json(actions.map(({ id, label, description }) => ({ id, label, description })));
  });

  return router;
}
