// /api/settings/*: the app layer, a project's layer, its storage, the resolved view, and quarantine.
import type { Router, Request } from "express";
import { routeRouter } from "./router";
import { storageBodySchema } from "../../shared/settings";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import type { AppSettingsStore } from "../../store/app-settings-store";
import { parseWith } from "../middleware/validation";

export type SettingsDeps = { settings: SettingsService; projects: ProjectRegistry; appStore: AppSettingsStore };

export function settingsRoutes(deps: SettingsDeps): Router {
  const router = routeRouter();
  // GETs read the folder as it is; a write registers it (contract, section 4).
  const readProject = (req: Request) => deps.projects.lookup(req.query.projectDir);
  const project = (req: Request) => deps.projects.resolveDir(req.query.projectDir);

  router.get("/api/settings/app", async (_req, res) => {
    res.json(await deps.settings.getApp());
  });
  router.patch("/api/settings/app", async (req, res) => {
    res.json(await deps.settings.patchApp(req.body));
  });
  router.get("/api/settings/app/quarantine", (_req, res) => {
    res.json(deps.appStore.listQuarantined());
  });

  router.get("/api/settings/project", async (req, res) => {
    res.json(await deps.settings.getProject(await readProject(req)));
  });
  router.patch("/api/settings/project", async (req, res) => {
    res.json(await deps.settings.patchProject(await project(req), req.body));
  });
  router.put("/api/settings/project/storage", async (req, res) => {
    const row = await project(req);
    const body = parseWith(storageBodySchema, req.body);
    res.json(await deps.settings.setStorage(row, body.dbBacked));
  });

  router.get("/api/settings/resolved", async (req, res) => {
    const row = req.query.projectDir === undefined ? undefined : await readProject(req);
    // `provenance` was added later beside `settings`; clients that read only `settings` are unaffected.
    res.json(await deps.settings.resolvedWithProvenance(row));
  });

  return router;
}
