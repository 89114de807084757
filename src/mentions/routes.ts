// Tags, the project scan, and the @ popup's catalog and ranked search.
import type { SettingsService } from "../settings/settings-service";
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import { SupersededError } from "./mention-engine";
import type { Mentions } from "./mentions";
import type { ProjectRegistry } from "../projects/project-registry";
import { jsonParts, route } from "../platform/http/define-route";

/** Aborts when the client goes away before the answer is written. */
function requestSignal(res: {
  on(event: "close", listener: () => void): unknown;
  writableEnded: boolean;
}): AbortSignal {
  const controller = new AbortController();
  // The response's close, not the request's: a request closes as soon as its body has been read,
  // which says nothing about whether anyone still waits for the answer.
  res.on("close", () => {
    if (!res.writableEnded) controller.abort();
  });
  return controller.signal;
}

// Scanning, indexing, ranking and serialising the file lists happen in the mention worker: these
// handlers only pass bytes along (a part at a time: a part from the worker lives in a buffer the next
// part overwrites, see MentionEngine.readBody), so a million files never stall other requests.
export function mentionRoutes(deps: {
  mentions: Mentions;
  projects: ProjectRegistry;
  settings: SettingsService;
}): Router {
  const router = routeRouter();

  route(
    router,
    "GET /api/projects/:id/tags",
    async ({ params }) => (await deps.settings.snapshot(deps.projects.byId(params.id))).fileTags,
  );

  route(router, "POST /api/projects/:id/tags/scan", async ({ params }) =>
    jsonParts(await deps.mentions.scanBody(deps.projects.byId(params.id))),
  );

  route(router, "GET /api/mentions/catalog", async ({ query }) =>
    jsonParts(
      await deps.mentions.catalogBody(
        await deps.settings.snapshot(await deps.projects.lookup(query.projectDir)),
        query.chatId,
      ),
    ),
  );

  route(router, "GET /api/mentions/search", async ({ query, res }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(query.projectDir));
    const signal = requestSignal(res);
    try {
      return await deps.mentions.search(snapshot, query.q, {
        category: query.category,
        limit: query.limit,
        chatId: query.chatId,
        clientId: query.clientId,
        seq: query.seq,
        signal,
      });
    } catch (error) {
      // A newer keystroke of the same client (`clientId`) replaced this one before it ran.
      if (!(error instanceof SupersededError)) throw error;
      res.set("X-Parley-Superseded", "1");
      return [];
    }
  });

  return router;
}
