// Worktree chats' routes (contract 7.6): a chat's worktree, one changed file, merge, discard, and the
// project's board.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import { route } from "../platform/http/define-route";
import { DEFAULT_CHAT_TITLE, type ChatService } from "../chat/chat-service";
import type { ProjectRegistry } from "../projects/project-registry";
import { boardOf, type BoardDeps } from "./board";
import type { WorktreeService } from "./worktree-service";

export type WorktreeRoutesDeps = BoardDeps & {
  projects: ProjectRegistry;
  chatService: ChatService;
  worktrees: WorktreeService;
};

export function worktreeRoutes(deps: WorktreeRoutesDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/chats/:id/worktree", ({ params }) => deps.worktrees.info(deps.chatService.get(params.id).id));

  route(router, "GET /api/chats/:id/worktree/file", ({ params, query }) =>
    deps.worktrees.file(deps.chatService.get(params.id).id, query.path),
  );

  route(router, "POST /api/chats/:id/worktree/merge", async ({ params, body }) => {
    const chat = deps.chatService.get(params.id);
    // The commit is named after the chat, unless it still has the placeholder title.
    const message =
      chat.title === DEFAULT_CHAT_TITLE ? `Work from ${chat.worktreeBranch ?? "a Parley chat"}` : chat.title;
    const result = await deps.worktrees.merge(chat.id, body.mode, message);
    deps.chatService.changed(chat);
    return result;
  });

  route(router, "DELETE /api/chats/:id/worktree", async ({ params, body }) => {
    const chat = deps.chatService.get(params.id);
    await deps.worktrees.discard(chat.id, body.force === true);
    deps.chatService.changed(chat);
  });

  route(router, "GET /api/projects/:id/worktree-chats", ({ params }) =>
    boardOf(deps, deps.projects.byId(params.id).id),
  );

  return router;
}
