// /api/projects: the project list and registration of a directory.
import path from "node:path";
import type { Router } from "express";
import { routeRouter } from "./router";
import { createProjectBodySchema, type Project } from "../../shared/projects";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import type { ProjectRow } from "../../store/projects-repo";
import { parseWith } from "../middleware/validation";

export type ProjectsDeps = { projects: ProjectRegistry; settings: SettingsService };

export async function describeProject(deps: ProjectsDeps, row: ProjectRow): Promise<Project> {
  const layer = await deps.settings.readProjectLayer(row);
  const name = typeof layer.value.name === "string" ? layer.value.name : path.basename(row.dir);
  return { id: row.id, name, dir: row.dir, dbBacked: layer.dbBacked };
}

export function projectRoutes(deps: ProjectsDeps): Router {
  const router = routeRouter();

  router.get("/api/projects", async (_req, res) => {
    res.json(await Promise.all(deps.projects.list().map((row) => describeProject(deps, row))));
  });

  router.post("/api/projects", async (req, res) => {
    const body = parseWith(createProjectBodySchema, req.body);
    const { project, created } = await deps.projects.register(body.dir);
    res.status(created ? 201 : 200).json(await describeProject(deps, project));
  });

  return router;
}
