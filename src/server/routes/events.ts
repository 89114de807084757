// GET /api/events: app-wide change notifications for every open UI.
import type { Router } from "express";
import { routeRouter } from "./router";
import type { EventBus } from "../../services/event-bus";
import { openSse, type SseRegistry } from "../sse";

export function eventRoutes(events: EventBus, streams: SseRegistry): Router {
  return routeRouter().get("/api/events", (req, res) => {
    let unsubscribe = () => {};
    const channel = openSse(req, res, streams, () => unsubscribe());
    unsubscribe = events.subscribe((event) => channel.send(event.type, event.data));
    channel.send("ready", {});
  });
}
