// /api/projects: the project list and registration of a directory.
import path from "node:path";
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { Project } from "../shared/projects";
import type { ProjectRegistry } from "./project-registry";
import type { SettingsService } from "../settings/settings-service";
import type { ProjectRow } from "./projects-repo";
import { created, route } from "../platform/http/define-route";

export type ProjectsDeps = { projects: ProjectRegistry; settings: SettingsService };

export async function describeProject(deps: ProjectsDeps, row: ProjectRow): Promise<Project> {
  const layer = await deps.settings.readProjectLayer(row);
  const name = typeof layer.value.name === "string" ? layer.value.name : path.basename(row.dir);
  return { id: row.id, name, dir: row.dir, dbBacked: layer.dbBacked };
}

export function projectRoutes(deps: ProjectsDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/projects", () => Promise.all(deps.projects.list().map((row) => describeProject(deps, row))));

  route(router, "POST /api/projects", async ({ body }) => {
    const { project, created: isNew } = await deps.projects.register(body.dir);
    const described = await describeProject(deps, project);
    return isNew ? created(described) : described;
  });

  return router;
}
