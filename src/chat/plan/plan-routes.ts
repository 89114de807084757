// Plan mode's route: "Implement this plan" on a Plan answer.
import type { Router } from "express";
import { route } from "../../platform/http/define-route";
import { routeRouter } from "../../platform/http/router";
import { implementPlan, type ImplementPlanDeps } from "./implement-plan";

export function planRoutes(deps: ImplementPlanDeps): Router {
  const router = routeRouter();

  route(router, "POST /api/chats/:id/implement-plan", ({ params, body }) =>
    implementPlan(deps, params.id, body.messageId),
  );

  return router;
}
