// Chats: CRUD, the streaming turn, following a live turn from another UI, and cancel.
import type { Router } from "express";
import { routeRouter } from "./router";
import { createChatBodySchema, patchChatBodySchema, streamBodySchema } from "../../shared/chats";
import type { ChatService } from "../../services/chat-service";
import type { ChatTurns } from "../../services/chat-turn";
import type { ProjectRegistry } from "../../services/project-registry";
import type { ActiveTurns, TurnBroadcast } from "../../services/turn-broadcast";
import { parseWith } from "../middleware/validation";
import { openSse, type SseChannel, type SseRegistry } from "../sse";

export type ChatRoutesDeps = {
  projects: ProjectRegistry;
  chatService: ChatService;
  chatTurns: ChatTurns;
  activeTurns: ActiveTurns;
};

function pipe(broadcast: TurnBroadcast, channel: SseChannel, afterId: number): () => void {
  return broadcast.follow(afterId, (event) => {
    channel.send(event.event, event.data, event.id);
    if (event.event === "turn.end") channel.close();
  });
}

export function chatRoutes(deps: ChatRoutesDeps, streams: SseRegistry): Router {
  const router = routeRouter();

  router.get("/api/projects/:id/chats", (req, res) => {
    const project = deps.projects.byId(req.params.id);
    res.json(deps.chatService.list(project.id));
  });

  router.post("/api/projects/:id/chats", async (req, res) => {
    const project = deps.projects.byId(req.params.id);
    const body = parseWith(createChatBodySchema, req.body ?? {});
    res.status(201).json(await deps.chatService.create(project, body));
  });

  router.get("/api/chats/:id", (req, res) => {
    res.json(deps.chatService.withMessages(req.params.id));
  });

  router.patch("/api/chats/:id", async (req, res) => {
    const body = parseWith(patchChatBodySchema, req.body);
    const chat = deps.chatService.get(req.params.id);
    res.json(await deps.chatService.update(chat.id, body, deps.projects.byId(chat.projectId)));
  });

  router.delete("/api/chats/:id", (req, res) => {
    deps.activeTurns.cancel(req.params.id);
    deps.chatService.delete(req.params.id);
    res.status(204).end();
  });

  router.post("/api/chats/:id/messages/stream", async (req, res) => {
    const body = parseWith(streamBodySchema, req.body);
    const chat = deps.chatService.get(req.params.id);
    const prepared = await deps.chatTurns.prepare(chat, deps.projects.byId(chat.projectId), body);
    const broadcast = deps.chatTurns.start(prepared);
    // The upstream request is written in the event loop's next check phase (see ChatTurns.start);
    // the client's answer opens right after it, so the two writes do not add up before the first
    // token. Nothing is missed: the stream replays the turn from its first event.
    setImmediate(() => {
      // A client that goes away cancels its turn at once: the upstream request is aborted.
      const channel = openSse(req, res, streams, () => {
        if (!broadcast.done) deps.activeTurns.cancel(chat.id);
      });
      pipe(broadcast, channel, 0);
    });
  });

  /** Replays and follows the chat's current (or just finished) turn after Last-Event-ID. */
  router.get("/api/chats/:id/stream", (req, res) => {
    deps.chatService.get(req.params.id);
    const broadcast = deps.activeTurns.latest(req.params.id);
    if (!broadcast) {
      res.status(204).end();
      return;
    }
    const after = Number(req.headers["last-event-id"] ?? req.query.after ?? 0);
    let unsubscribe = () => {};
    const channel = openSse(req, res, streams, () => unsubscribe());
    unsubscribe = pipe(broadcast, channel, Number.isFinite(after) ? after : 0);
  });

  router.post("/api/chats/:id/cancel", (req, res) => {
    deps.chatService.get(req.params.id);
    deps.activeTurns.cancel(req.params.id);
    res.status(204).end();
  });

  return router;
}
