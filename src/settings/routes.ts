// /api/settings/*: the app layer, a project's layer, its storage, the resolved view, and quarantine.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { ProjectRegistry } from "../projects/project-registry";
import type { SettingsService } from "./settings-service";
import type { AppSettingsStore } from "./app-settings-store";
import { route } from "../platform/http/define-route";

export type SettingsDeps = { settings: SettingsService; projects: ProjectRegistry; appStore: AppSettingsStore };

export function settingsRoutes(deps: SettingsDeps): Router {
  const router = routeRouter();
  // GETs read the folder as it is (lookup); a write registers it (resolveDir; contract, section 4).
  const { settings, projects } = deps;

  route(router, "GET /api/settings/app", () => settings.getApp());
  route(router, "PATCH /api/settings/app", ({ body }) => settings.patchApp(body));
  route(router, "GET /api/settings/app/quarantine", () => deps.appStore.listQuarantined());

  route(router, "GET /api/settings/project", async ({ query }) =>
    settings.getProject(await projects.lookup(query.projectDir)),
  );
  route(router, "PATCH /api/settings/project", async ({ query, body }) =>
    settings.patchProject(await projects.resolveDir(query.projectDir), body),
  );
  route(router, "PUT /api/settings/project/storage", async ({ query, body }) =>
    settings.setStorage(await projects.resolveDir(query.projectDir), body.dbBacked),
  );

  // `provenance` was added later beside `settings`; clients that read only `settings` are unaffected.
  route(router, "GET /api/settings/resolved", async ({ query }) =>
    settings.resolvedWithProvenance(
      query.projectDir === undefined ? undefined : await projects.lookup(query.projectDir),
    ),
  );

  return router;
}
