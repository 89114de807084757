// Chats: CRUD, the streaming turn, following a live turn from another UI, and cancel.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { ChatService } from "./chat-service";
import type { ChatTurns } from "./chat-turn";
import type { RequestsRepo } from "./requests-repo";
import type { ProjectRegistry } from "../projects/project-registry";
import type { ActiveTurns, TurnBroadcast } from "./turn-broadcast";
import { created, route, streamRoute } from "../platform/http/define-route";
import { conflict } from "../platform/app-error";
import { openSse, type SseChannel, type SseRegistry } from "../platform/http/sse";
import type { WorktreeService } from "../worktrees/worktree-service";
import type { ProjectRow } from "../projects/projects-repo";
import type { CreateChatBody } from "../shared/chats";
import type { PlanPins } from "./plan/plan-pins";

export type ChatRoutesDeps = {
  projects: ProjectRegistry;
  requests: RequestsRepo;
  chatService: ChatService;
  chatTurns: ChatTurns;
  activeTurns: ActiveTurns;
  worktrees: WorktreeService;
  planPins: Pick<PlanPins, "carry">;
};

function pipe(broadcast: TurnBroadcast, channel: SseChannel, afterId: number): () => void {
  return broadcast.follow(afterId, (event) => {
    channel.send(event.event, event.data, event.id);
    if (event.event === "turn.end") channel.close();
  });
}

export function chatRoutes(deps: ChatRoutesDeps, streams: SseRegistry): Router {
  const router = routeRouter();

  route(router, "GET /api/projects/:id/chats", ({ params, query }) =>
    deps.chatService.list(deps.projects.byId(params.id).id, query),
  );

  /** A worktree chat (contract 7.6): its worktree first; if the chat cannot be stored, the worktree goes again. */
  async function createInWorktree(project: ProjectRow, body: CreateChatBody) {
    const request = typeof body.worktree === "object" ? body.worktree : {};
    const title = body.title ?? `chat ${Math.random().toString(36).slice(2, 6)}`;
    const worktree = await deps.worktrees.create(project, title, request);
    try {
      const chat = await deps.chatService.create(project, body, worktree.branch);
      deps.worktrees.record(chat.id, worktree);
      return chat;
    } catch (error) {
      await deps.worktrees.abandon(worktree);
      throw error;
    }
  }

  route(router, "POST /api/projects/:id/chats", async ({ params, body }) => {
    const project = deps.projects.byId(params.id);
    return created(
      body.worktree ? await createInWorktree(project, body) : await deps.chatService.create(project, body),
    );
  });

  route(router, "GET /api/chats/:id", ({ params, query }) => deps.chatService.withMessages(params.id, query));

  route(router, "GET /api/chats/:id/context", async ({ params }) => {
    const chat = deps.chatService.get(params.id);
    return deps.chatTurns.contextNow(chat, deps.projects.byId(chat.projectId));
  });

  route(router, "GET /api/chats/:id/requests", ({ params }) =>
    deps.requests.forChat(deps.chatService.get(params.id).id),
  );

  route(router, "PATCH /api/chats/:id", async ({ params, body }) => {
    const chat = deps.chatService.get(params.id);
    // Not while the chat answers or compacts (see ChatTurns.isBusy); asked by `update` after its awaits.
    const canSwitch = () => {
      if (deps.chatTurns.isBusy(chat.id))
        throw conflict("this chat is answering or compacting; switch versions when it is done");
    };
    if (body.leafId !== undefined) canSwitch();
    return deps.chatService.update(chat.id, body, deps.projects.byId(chat.projectId), canSwitch);
  });

  route(router, "POST /api/chats/:id/fork", ({ params, body }) => {
    const { chat, copied } = deps.chatService.fork(params.id, body.messageId);
    // A plan the chat implements goes with the fork when its answer is among what was copied.
    deps.planPins.carry(params.id, chat.id, copied);
    return created(chat);
  });

  route(router, "DELETE /api/chats/:id", async ({ params }) => {
    deps.activeTurns.cancel(params.id);
    // A worktree chat's folder goes; work its base lacks stays on its branch (see WorktreeService.release).
    await deps.worktrees.release(params.id);
    deps.chatService.delete(params.id);
  });

  streamRoute(router, "POST /api/chats/:id/messages/stream", async ({ params, body, req, res }) => {
    const chat = deps.chatService.get(params.id);
    const prepared = await deps.chatTurns.prepare(chat, deps.projects.byId(chat.projectId), body);
    const broadcast = deps.chatTurns.start(prepared);
    // The upstream request is written in the event loop's next check phase (see ChatTurns.start);
    // the client's answer opens right after it, so the two writes do not add up before the first
    // token. Nothing is missed: the stream replays the turn from its first event.
    setImmediate(() => {
      // A worktree chat works on while nobody watches it (contract 7.6: its Agents board follows it and
      // answers what it asks); Stop cancels it. Any other chat's turn ends with its client.
      const channel = openSse(req, res, streams, () => {
        if (!broadcast.done && !chat.worktreeBranch) deps.activeTurns.cancel(chat.id);
      });
      pipe(broadcast, channel, 0);
    });
  });

  /** Replays and follows the chat's current (or just finished) turn after Last-Event-ID. */
  streamRoute(router, "GET /api/chats/:id/stream", ({ params, query, req, res }) => {
    deps.chatService.get(params.id);
    const broadcast = deps.activeTurns.latest(params.id);
    if (!broadcast) {
      res.status(204).end();
      return;
    }
    const after = Number(req.headers["last-event-id"] ?? query.after ?? 0);
    let unsubscribe = () => {};
    const channel = openSse(req, res, streams, () => unsubscribe());
    unsubscribe = pipe(broadcast, channel, Number.isFinite(after) ? after : 0);
  });

  route(router, "POST /api/chats/:id/cancel", ({ params }) => {
    deps.chatService.get(params.id);
    deps.activeTurns.cancel(params.id);
  });

  return router;
}
