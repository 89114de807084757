// /api/prompts: custom prompts at app and project scope, and the built-in profiles.
import type { SettingsService } from "../settings/settings-service";
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import { PROMPT_PROFILES } from "./prompt-profiles";
import type { PromptScope } from "../shared/prompts";
import type { ProjectRegistry } from "../projects/project-registry";
import type { PromptService } from "./prompt-service";
import { created, route } from "../platform/http/define-route";

export function promptRoutes(deps: {
  prompts: PromptService;
  projects: ProjectRegistry;
  settings: SettingsService;
}): Router {
  const router = routeRouter();
  const projectFor = async (scope: PromptScope, projectDir: string | undefined) =>
    scope === "project" ? deps.projects.resolveDir(projectDir) : undefined;

  route(router, "GET /api/prompts", async ({ query, res }) => {
    if (!("projectDir" in query)) return deps.prompts.listApp();
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(query.projectDir));
    const { prompts, issues } = deps.prompts.listForProject(snapshot);
    // Damaged entries in .app.json are skipped; the header says how many, the settings view says which.
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    return prompts;
  });

  route(router, "GET /api/prompts/defaults", () => [...PROMPT_PROFILES]);

  route(router, "POST /api/prompts", async ({ body }) =>
    created(await deps.prompts.create(body.scope, await projectFor(body.scope, body.projectDir), body.prompt)),
  );

  route(router, "PUT /api/prompts/:id", async ({ params, body }) =>
    deps.prompts.update(body.scope, await projectFor(body.scope, body.projectDir), params.id, body.prompt),
  );

  route(router, "DELETE /api/prompts/:id", async ({ params, query }) => {
    await deps.prompts.delete(query.scope, await projectFor(query.scope, query.projectDir), params.id);
  });

  return router;
}
