// GET /api/search: messages of every chat (or one project's) that contain the user's words (contract 7.4).
import type { Router } from "express";
import { route } from "../platform/http/define-route";
import { routeRouter } from "../platform/http/router";
import type { ProjectRegistry } from "../projects/project-registry";
import { searchWords } from "./fts-query";
import type { SearchRepo } from "./search-repo";

export function searchRoutes(deps: { projects: ProjectRegistry; search: SearchRepo }): Router {
  const router = routeRouter();
  route(router, "GET /api/search", async ({ query }) => {
    const words = searchWords(query.q);
    // A folder that is not a project (lookup never registers one) has no chats to search.
    const project = query.projectDir === undefined ? undefined : await deps.projects.lookup(query.projectDir);
    if (words === undefined) return [];
    return deps.search.search(words, query.limit, project?.id);
  });
  return router;
}
