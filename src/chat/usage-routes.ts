// GET /api/usage: tokens and cost (chat turns and transcriptions) grouped by model or by day, for one project or all.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { ProjectRegistry } from "../projects/project-registry";
import type { UsageLedger } from "./usage-ledger";
import { route } from "../platform/http/define-route";

export function usageRoutes(deps: { projects: ProjectRegistry; usageLedger: UsageLedger }): Router {
  const router = routeRouter();
  route(router, "GET /api/usage", async ({ query }) => {
    const project = query.projectDir === undefined ? undefined : await deps.projects.lookup(query.projectDir);
    return deps.usageLedger.usage({ projectId: project?.id, groupBy: query.groupBy, from: query.from, to: query.to });
  });
  return router;
}
