// Compaction's routes (contract 7.3): compact now, edit a summary, undo a compaction.
import type { Router } from "express";
import { routeRouter } from "../../platform/http/router";
import { route } from "../../platform/http/define-route";
import type { ChatService } from "../chat-service";
import type { ChatTurns } from "../chat-turn";
import type { ProjectRegistry } from "../../projects/project-registry";
import type { CompactionEntries } from "./compaction-entries";

export type CompactionRoutesDeps = {
  projects: ProjectRegistry;
  chatService: ChatService;
  chatTurns: ChatTurns;
  compactionEntries: CompactionEntries;
};

export function compactionRoutes(deps: CompactionRoutesDeps): Router {
  const router = routeRouter();

  route(router, "POST /api/chats/:id/compact", async ({ params }) => {
    const chat = deps.chatService.get(params.id);
    return deps.chatTurns.compactNow(chat, deps.projects.byId(chat.projectId));
  });

  route(router, "PATCH /api/chats/:id/compactions/:cid", ({ params, body }) => {
    const chat = deps.chatService.get(params.id);
    const entry = deps.compactionEntries.edit(chat.id, params.cid, body.summary);
    deps.chatService.changed(chat);
    return entry;
  });

  route(router, "DELETE /api/chats/:id/compactions/:cid", ({ params }) => {
    const chat = deps.chatService.get(params.id);
    deps.compactionEntries.undo(chat.id, params.cid);
    deps.chatService.changed(chat);
  });

  return router;
}
