// GET /api/health: liveness without credentials.
import { Router } from "express";

export function healthRoutes(version: string): Router {
  return Router().get("/api/health", (_req, res) => {
    res.json({ ok: true, version });
  });
}
