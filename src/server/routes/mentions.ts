// Tags, the project scan, and the @ popup's catalog and ranked search.
import type { SettingsService } from "../../services/settings-service";
import type { Router } from "express";
import { routeRouter } from "./router";
import { z } from "zod";
import { fileFolder } from "../../core/mention-search";
import { mentionSearchQuerySchema } from "../../shared/mentions";
import type { Mentions } from "../../services/mentions";
import type { ProjectRegistry } from "../../services/project-registry";
import type { ProjectScanner } from "../../services/project-scan";
import { parseWith } from "../middleware/validation";

export function mentionRoutes(deps: { mentions: Mentions; projects: ProjectRegistry; scanner: ProjectScanner; settings: SettingsService }): Router {
  const router = routeRouter();

  router.get("/api/projects/:id/tags", async (req, res) => {
    res.json((await deps.settings.snapshot(deps.projects.byId(req.params.id))).fileTags);
  });

  router.post("/api/projects/:id/tags/scan", async (req, res) => {
    const project = deps.projects.byId(req.params.id);
    const scan = await deps.scanner.scan(project.id, project.dir);
    res.json({
      scannedAt: new Date(scan.at).toISOString(),
      files: scan.paths.map((p) => ({ path: p, name: p.slice(p.lastIndexOf("/") + 1), folder: fileFolder(p) })),
    });
  });

  router.get("/api/mentions/catalog", async (req, res) => {
    const query = parseWith(z.object({ projectDir: z.string(), chatId: z.string().optional() }), req.query, "the query");
    res.json(await deps.mentions.catalog(await deps.settings.snapshot(await deps.projects.lookup(query.projectDir)), query.chatId));
  });

  router.get("/api/mentions/search", async (req, res) => {
    const query = parseWith(mentionSearchQuerySchema, req.query, "the query");
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(query.projectDir));
    res.json(await deps.mentions.search(snapshot, query.q, { category: query.category, limit: query.limit, chatId: query.chatId }));
  });

  return router;
}
