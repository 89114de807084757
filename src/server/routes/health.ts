// GET /api/health: liveness without credentials.
import type { Router } from "express";
import { routeRouter } from "./router";

export function healthRoutes(version: string): Router {
  return routeRouter().get("/api/health", (_req, res) => {
    res.json({ ok: true, version });
  });
}
