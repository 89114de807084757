// Tool routes: the project's tool catalog with gates, approvals and answers for a waiting turn, and
// the revert of a turn's file changes.
import type { Router } from "express";
import { AppError, notFound } from "../platform/app-error";
import type { ChatService } from "../chat/chat-service";
import type { ProjectRegistry } from "../projects/project-registry";
import type { SettingsService } from "../settings/settings-service";
import { revertTurn } from "../chat/turn-revert";
import type { CatalogTool } from "../shared/tools";
import type { SandboxStatus } from "../shared/sandbox";
import type { CheckpointsRepo } from "../chat/checkpoints-repo";
import type { McpManager } from "./mcp/manager";
import { toolGate } from "./gate";
import type { ToolEnvironment } from "../chat/tool-environment";
import type { PendingInteractions } from "./interactions";
import { NATIVE_TOOLS } from "./native-tools";
import { route } from "../platform/http/define-route";
import { routeRouter } from "../platform/http/router";

export type ToolRoutesDeps = {
  settings: SettingsService;
  projects: ProjectRegistry;
  chatService: ChatService;
  mcp: McpManager;
  interactions: PendingInteractions;
  checkpoints: CheckpointsRepo;
  tools: ToolEnvironment;
};

/** A catalog row's sandbox fields: `sandboxed`, and the reason when it is not. */
function sandboxFields(status: SandboxStatus): Pick<CatalogTool, "sandboxed" | "sandboxReason"> {
  return status.sandboxed ? { sandboxed: true } : { sandboxed: false, sandboxReason: status.reason ?? "not sandboxed" };
}

export function toolRoutes(deps: ToolRoutesDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/tools/catalog", async ({ query }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(query.projectDir));
    const gates = snapshot.gates;
    // Stdio servers only: a remote server's tools run elsewhere, so the sandbox says nothing of them.
    const sandboxes = deps.mcp.sandboxStatuses(snapshot);
    const tools: CatalogTool[] = [
      ...NATIVE_TOOLS.map((t) => ({
        name: t.name,
        kind: "native" as const,
        description: t.description,
        parameters: t.parameters,
        gate: toolGate(t.name, gates),
        ...(t.name === "shell" ? sandboxFields(snapshot.shellSandbox) : {}),
      })),
      ...deps.mcp.toolsFor(snapshot).map((t) => ({
        name: t.id,
        kind: "mcp" as const,
        description: t.description,
        ...(t.parameters ? { parameters: t.parameters } : {}),
        serverId: t.serverId,
        server: t.serverId,
        gate: toolGate(t.id, gates),
        ...(t.starting ? { starting: true } : {}),
        ...(sandboxes.has(t.serverId) ? sandboxFields(sandboxes.get(t.serverId)!) : {}),
      })),
    ];
    return tools;
  });

  route(router, "POST /api/chats/:id/approvals/:call", async ({ params, body }) => {
    const chat = deps.chatService.get(params.id);
    if (body.remember === true && body.decision === "allow") {
      // "Always allow" writes an `allow` gate into the project: in an untrusted project that loosening
      // would not count, so the user trusts the project first ("Trust and allow"). The call keeps waiting.
      const snapshot = await deps.settings.snapshot(deps.projects.byId(chat.projectId));
      if (!snapshot.trusted)
        throw new AppError(
          "forbidden",
          "this project is not trusted, so Parley cannot always allow a tool in it; trust the project (Settings, This project) and allow again, or allow just this call",
        );
    }
    if (
      !deps.interactions.approve(params.id, params.call, { decision: body.decision, remember: body.remember === true })
    ) {
      throw notFound(`no call ${params.call} is waiting for an approval in this chat`);
    }
  });

  route(router, "POST /api/chats/:id/answers/:call", ({ params, body }) => {
    deps.chatService.get(params.id);
    if (!deps.interactions.answer(params.id, params.call, body.answer)) {
      throw notFound(`no question ${params.call} is waiting for an answer in this chat`);
    }
  });

  route(router, "POST /api/chats/:id/turns/:turn/revert", async ({ params, body }) => {
    const chat = deps.chatService.get(params.id);
    const project = deps.projects.byId(chat.projectId);
    // A worktree chat's checkpoints are of its worktree's files.
    const dir = deps.tools.workingDir(chat.id, project.dir);
    const result = await revertTurn(deps.checkpoints, chat.id, params.turn, dir, body.force === true);
    deps.chatService.turnReverted(chat, params.turn);
    return result;
  });

  return router;
}
