// GET /api/chats/:id/export: the chat's current path as a markdown or JSON file (contract 7.4).
import type { Router } from "express";
import { downloadRoute } from "../../platform/http/define-route";
import { routeRouter } from "../../platform/http/router";
import { nowIso } from "../../platform/clock";
import type { ChatService } from "../chat-service";
import type { MessagesRepo } from "../messages-repo";
import { chatExportDocument } from "./export-document";
import { exportFileName } from "./export-file";
import { chatMarkdown } from "./export-markdown";

export function chatExportRoutes(deps: { chatService: ChatService; messages: MessagesRepo }): Router {
  const router = routeRouter();
  downloadRoute(router, "GET /api/chats/:id/export", ({ params, query }) => {
    const chat = deps.chatService.get(params.id);
    const document = chatExportDocument(chat, deps.messages.listByChat(chat.id), nowIso());
    const body = query.format === "json" ? `${JSON.stringify(document, null, 2)}\n` : chatMarkdown(document);
    return { format: query.format, fileName: exportFileName(chat.title, query.format), body };
  });
  return router;
}
