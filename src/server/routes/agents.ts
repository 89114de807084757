// /api/agents and /api/actions: the project's agents and saved custom actions.
import type { Router } from "express";
import { routeRouter } from "./router";
import type { ProjectAgents } from "../../services/project-agents";
import type { ProjectRegistry } from "../../services/project-registry";

export function agentRoutes(deps: { projectAgents: ProjectAgents; projects: ProjectRegistry }): Router {
  const router = routeRouter();

  router.get("/api/agents", async (req, res) => {
    const { agents, issues } = await deps.projectAgents.agents(await deps.projects.resolveDir(req.query.projectDir));
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    res.json(agents.map(({ name, description, model, tools, promptId }) => ({ name, description, ...(model ? { model } : {}), ...(tools ? { tools } : {}), ...(promptId ? { promptId } : {}) })));
  });

  router.get("/api/actions", async (req, res) => {
    const { actions, issues } = await deps.projectAgents.actions(await deps.projects.resolveDir(req.query.projectDir));
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    res.json(actions.map(({ id, label, description }) => ({ id, label, description })));
  });

  return router;
}
