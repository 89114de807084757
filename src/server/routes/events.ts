// GET /api/events: app-wide change notifications for every open UI.
import type { Router } from "express";
import { routeRouter } from "../../platform/http/router";
import type { EventBus } from "../../platform/event-bus";
import { streamRoute } from "../../platform/http/define-route";
import { openSse, type SseRegistry } from "../../platform/http/sse";

export function eventRoutes(events: EventBus, streams: SseRegistry): Router {
  const router = routeRouter();
  streamRoute(router, "GET /api/events", ({ req, res }) => {
    let unsubscribe = () => {};
    const channel = openSse(req, res, streams, () => unsubscribe());
    unsubscribe = events.subscribe((event) => channel.send(event.type, event.data));
    channel.send("ready", {});
  });
  return router;
}
