// /api/prompts: custom prompts at app and project scope, and the built-in profiles.
import type { SettingsService } from "../../services/settings-service";
import type { Router } from "express";
import { routeRouter } from "./router";
import { z } from "zod";
import { PROMPT_PROFILES } from "../../core/prompt-profiles";
import { invalid } from "../../core/app-error";
import { promptDeleteQuerySchema, promptWriteBodySchema, type PromptScope } from "../../shared/prompts";
import type { ProjectRegistry } from "../../services/project-registry";
import type { PromptService } from "../../services/prompt-service";
import { parseWith } from "../middleware/validation";

export function promptRoutes(deps: { prompts: PromptService; projects: ProjectRegistry; settings: SettingsService }): Router {
  const router = routeRouter();
  const projectFor = async (scope: PromptScope, projectDir: string | undefined) => (scope === "project" ? deps.projects.resolveDir(projectDir) : undefined);

  router.get("/api/prompts", async (req, res) => {
    const query = parseWith(z.object({ scope: z.literal("app").optional(), projectDir: z.string().optional() }), req.query, "the query");
    if (query.projectDir !== undefined) {
      const snapshot = await deps.settings.snapshot(await deps.projects.lookup(query.projectDir));
      const { prompts, issues } = deps.prompts.listForProject(snapshot);
      // Damaged entries in .app.json are skipped; the header says how many, the settings view says which.
      if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
      res.json(prompts);
      return;
    }
    if (query.scope !== "app") throw invalid("give ?scope=app or ?projectDir=");
    res.json(deps.prompts.listApp());
  });

  router.get("/api/prompts/defaults", (_req, res) => {
    res.json(PROMPT_PROFILES);
  });

  router.post("/api/prompts", async (req, res) => {
    const body = parseWith(promptWriteBodySchema, req.body);
    res.status(201).json(await deps.prompts.create(body.scope, await projectFor(body.scope, body.projectDir), body.prompt));
  });

  router.put("/api/prompts/:id", async (req, res) => {
    const body = parseWith(promptWriteBodySchema, req.body);
    res.json(await deps.prompts.update(body.scope, await projectFor(body.scope, body.projectDir), req.params.id, body.prompt));
  });

  router.delete("/api/prompts/:id", async (req, res) => {
    const query = parseWith(promptDeleteQuerySchema, req.query, "the query");
    await deps.prompts.delete(query.scope, await projectFor(query.scope, query.projectDir), req.params.id);
    res.status(204).end();
  });

  return router;
}
