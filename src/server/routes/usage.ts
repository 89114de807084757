// GET /api/usage: tokens and cost grouped by model or by day, for one project or all.
import type { Router } from "express";
import { routeRouter } from "./router";
import { usageQuerySchema } from "../../shared/usage";
import type { ProjectRegistry } from "../../services/project-registry";
import type { MessagesRepo } from "../../store/messages-repo";
import { parseWith } from "../middleware/validation";

export function usageRoutes(deps: { projects: ProjectRegistry; messages: MessagesRepo }): Router {
  return routeRouter().get("/api/usage", async (req, res) => {
    const query = parseWith(usageQuerySchema, req.query, "the query");
    const project = query.projectDir === undefined ? undefined : await deps.projects.lookup(query.projectDir);
    res.json(deps.messages.usage({ projectId: project?.id, groupBy: query.groupBy, from: query.from, to: query.to }));
  });
}
