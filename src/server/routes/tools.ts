// Tool routes: the project's tool catalog with gates, approvals and answers for a waiting turn, and
// the revert of a turn's file changes.
import type { Router } from "express";
import { AppError, notFound } from "../../core/app-error";
import type { ChatService } from "../../services/chat-service";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import { revertTurn } from "../../services/turn-revert";
import { answerBodySchema, approvalBodySchema, revertBodySchema, type CatalogTool } from "../../shared/tools";
import type { CheckpointsRepo } from "../../store/checkpoints-repo";
import type { McpManager } from "../../tools/mcp/manager";
import { toolGate } from "../../tools/gate";
import type { PendingInteractions } from "../../tools/interactions";
import { NATIVE_TOOLS } from "../../tools/native-tools";
import { parseWith } from "../middleware/validation";
import { routeRouter } from "./router";

export type ToolRoutesDeps = {
  settings: SettingsService;
  projects: ProjectRegistry;
  chatService: ChatService;
  mcp: McpManager;
  interactions: PendingInteractions;
  checkpoints: CheckpointsRepo;
};

export function toolRoutes(deps: ToolRoutesDeps): Router {
  const router = routeRouter();

  router.get("/api/tools/catalog", async (req, res) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(req.query.projectDir));
    const gates = snapshot.gates;
    const tools: CatalogTool[] = [
      ...NATIVE_TOOLS.map((t) => ({ name: t.name, kind: "native" as const, description: t.description, parameters: t.parameters, gate: toolGate(t.name, gates) })),
      ...deps.mcp.toolsFor(snapshot).map((t) => ({ name: t.id, kind: "mcp" as const, description: t.description, ...(t.parameters ? { parameters: t.parameters } : {}), serverId: t.serverId, server: t.serverId, gate: toolGate(t.id, gates) })),
    ];
    res.json(tools);
  });

  router.post("/api/chats/:id/approvals/:callId", async (req, res) => {
    const body = parseWith(approvalBodySchema, req.body);
    const chat = deps.chatService.get(req.params.id);
    if (body.remember === true && body.decision === "allow") {
      // "Always allow" writes an `allow` gate into the project: in an untrusted project that loosening
      // would not count, so the user trusts the project first ("Trust and allow"). The call keeps waiting.
      const snapshot = await deps.settings.snapshot(deps.projects.byId(chat.projectId));
      if (!snapshot.trusted) throw new AppError("forbidden", "this project is not trusted, so Parley cannot always allow a tool in it; trust the project (Settings, This project) and allow again, or allow just this call");
    }
    if (!deps.interactions.approve(req.params.id, req.params.callId, { decision: body.decision, remember: body.remember === true })) {
      throw notFound(`no call ${req.params.callId} is waiting for an approval in this chat`);
    }
    res.status(204).end();
  });

  router.post("/api/chats/:id/answers/:callId", (req, res) => {
    const body = parseWith(answerBodySchema, req.body);
    deps.chatService.get(req.params.id);
    if (!deps.interactions.answer(req.params.id, req.params.callId, body.answer)) {
      throw notFound(`no question ${req.params.callId} is waiting for an answer in this chat`);
    }
    res.status(204).end();
  });

  router.post("/api/chats/:id/turns/:turnId/revert", async (req, res) => {
    const body = parseWith(revertBodySchema, req.body ?? {});
    const chat = deps.chatService.get(req.params.id);
    const project = deps.projects.byId(chat.projectId);
    res.json(await revertTurn(deps.checkpoints, chat.id, req.params.turnId, project.dir, body.force === true));
  });

  return router;
}
