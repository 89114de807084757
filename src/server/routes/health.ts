// What this server is: GET /api/health (liveness, without credentials) and GET /api/openapi.json
// (the route table as an OpenAPI document, behind the access check like the rest of /api).
import type { Router } from "express";
import { routeRouter } from "../../platform/http/router";
import { route } from "../../platform/http/define-route";
import { openApiDocument } from "../openapi";

export function healthRoutes(version: string): Router {
  const router = routeRouter();
  route(router, "GET /api/health", () => ({ ok: true as const, version }));
  let document: ReturnType<typeof openApiDocument> | undefined;
  route(router, "GET /api/openapi.json", () => (document ??= openApiDocument(version)));
  return router;
}
