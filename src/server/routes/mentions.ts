// Tags, the project scan, and the @ popup's catalog and ranked search.
import type { SettingsService } from "../../services/settings-service";
import type { Response, Router } from "express";
import { routeRouter } from "./router";
import { z } from "zod";
import { mentionSearchQuerySchema } from "../../shared/mentions";
import { SupersededError } from "../../services/mention-engine";
import type { Mentions } from "../../services/mentions";
import type { ProjectRegistry } from "../../services/project-registry";
import { parseWith } from "../middleware/validation";

/** Aborts when the client goes away before the answer is written. */
function requestSignal(res: { on(event: "close", listener: () => void): unknown; writableEnded: boolean }): AbortSignal {
  const controller = new AbortController();
  // The response's close, not the request's: a request closes as soon as its body has been read,
  // which says nothing about whether anyone still waits for the answer.
  res.on("close", () => {
    if (!res.writableEnded) controller.abort();
  });
  return controller.signal;
}

/**
 * Writes a JSON body as the client takes it, a part at a time, each written out before the next is
 * read: a part from the worker lives in a buffer the next part overwrites (see
 * MentionEngine.readBody). A client that goes away stops the reading, which releases what the
 * worker holds. Failing midway, with the status already sent, the connection is cut: the client
 * sees a broken body, never a wrong one.
 */
async function sendBody(res: Response, parts: AsyncIterable<Buffer | string>): Promise<void> {
  res.type("json");
  try {
    for await (const part of parts) {
      await new Promise<void>((resolve, reject) => {
        if (res.destroyed) return reject(new Error("the client went away"));
        const gone = () => reject(new Error("the client went away"));
        res.once("close", gone);
        res.write(part, (error) => {
          res.off("close", gone);
          if (error) reject(error);
          else resolve();
        });
      });
    }
    res.end();
  } catch {
    res.destroy();
  }
}

// Scanning, indexing, ranking and serialising the file lists happen in the mention worker: these
// handlers only pass bytes along, so a million files never stall other requests.
export function mentionRoutes(deps: { mentions: Mentions; projects: ProjectRegistry; settings: SettingsService }): Router {
  const router = routeRouter();

  router.get("/api/projects/:id/tags", async (req, res) => {
    res.json((await deps.settings.snapshot(deps.projects.byId(req.params.id))).fileTags);
  });

  router.post("/api/projects/:id/tags/scan", async (req, res) => {
    const project = deps.projects.byId(req.params.id);
    await sendBody(res, await deps.mentions.scanBody(project));
  });

  router.get("/api/mentions/catalog", async (req, res) => {
    const query = parseWith(z.object({ projectDir: z.string(), chatId: z.string().optional() }), req.query, "the query");
    await sendBody(res, await deps.mentions.catalogBody(await deps.settings.snapshot(await deps.projects.lookup(query.projectDir)), query.chatId));
  });

  router.get("/api/mentions/search", async (req, res) => {
    const query = parseWith(mentionSearchQuerySchema, req.query, "the query");
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(query.projectDir));
    const signal = requestSignal(res);
    try {
      res.json(await deps.mentions.search(snapshot, query.q, { category: query.category, limit: query.limit, chatId: query.chatId, clientId: query.clientId, seq: query.seq, signal }));
    } catch (error) {
      // A newer keystroke of the same client (`clientId`) replaced this one before it ran.
      if (!(error instanceof SupersededError)) throw error;
      res.set("X-Parley-Superseded", "1").json([]);
    }
  });

  return router;
}
