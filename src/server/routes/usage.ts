// GET /api/usage: tokens and cost (chat turns and transcriptions) grouped by model or by day, for one project or all.
import type { Router } from "express";
import { routeRouter } from "./router";
import { usageQuerySchema } from "../../shared/usage";
import type { ProjectRegistry } from "../../services/project-registry";
import type { UsageLedger } from "../../store/usage-ledger";
import { parseWith } from "../middleware/validation";

export function usageRoutes(deps: { projects: ProjectRegistry; usageLedger: UsageLedger }): Router {
  return routeRouter().get("/api/usage", async (req, res) => {
    const query = parseWith(usageQuerySchema, req.query, "the query");
    const project = query.projectDir === undefined ? undefined : await deps.projects.lookup(query.projectDir);
    res.json(deps.usageLedger.usage({ projectId: project?.id, groupBy: query.groupBy, from: query.from, to: query.to }));
  });
}
