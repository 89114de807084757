// Tags, the project scan, and the @ popup's catalog and ranked search.
import type { Router } from "express";
import { routeRouter } from "./router";
import { z } from "zod";
import { fileFolder } from "../../core/mention-search";
import { mentionSearchQuerySchema } from "../../shared/mentions";
import type { Mentions } from "../../services/mentions";
import type { ProjectRegistry } from "../../services/project-registry";
import type { ProjectScanner } from "../../services/project-scan";
import { parseWith } from "../middleware/validation";

export function mentionRoutes(deps: { mentions: Mentions; projects: ProjectRegistry; scanner: ProjectScanner }): Router {
  const router = routeRouter();

  router.get("/api/projects/:id/tags", async (req, res) => {
    res.json(await deps.mentions.tags(deps.projects.byId(req.params.id)));
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
    res.json(await deps.mentions.catalog(await deps.projects.resolveDir(query.projectDir), query.chatId));
  });

  router.get("/api/mentions/search", async (req, res) => {
    const query = parseWith(mentionSearchQuerySchema, req.query, "the query");
    const project = await deps.projects.resolveDir(query.projectDir);
    res.json(await deps.mentions.search(project, query.q, { category: query.category, limit: query.limit, chatId: query.chatId }));
  });

  return router;
}
