// Direct runs from the composer: route a text, run an agent, dispatch a tool, run an action.
import type { Router } from "express";
import { invalid } from "../../core/app-error";
import { routeComposerText } from "../../core/composer-route";
import type { ChatService } from "../../services/chat-service";
import type { DirectRuns } from "../../services/direct-runs";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import { actionRunBodySchema, composerRouteBodySchema, dispatchBodySchema, subagentBodySchema } from "../../shared/tools";
import { parseWith } from "../middleware/validation";
import { routeRouter } from "./router";

export type DirectRoutesDeps = { settings: SettingsService; projects: ProjectRegistry; chatService: ChatService; directRuns: DirectRuns };

export function directRoutes(deps: DirectRoutesDeps): Router {
  const router = routeRouter();

  /** The project and the chat of a run; the chat must belong to the project. */
  const target = async (projectDir: string, chatId: string) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(projectDir));
    const chat = deps.chatService.get(chatId);
    if (chat.projectId !== snapshot.project.id) throw invalid("the chat does not belong to that project");
    return { snapshot, chat };
  };

  router.post("/api/composer/route", async (req, res) => {
    const body = parseWith(composerRouteBodySchema, req.body);
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(body.projectDir));
    const routed = routeComposerText(body.text, { agents: snapshot.agents.agents.map((a) => a.name), actions: snapshot.actions.actions.map((a) => a.id) });
    res.json(routed);
  });

  router.post("/api/tools/subagent", async (req, res) => {
    const body = parseWith(subagentBodySchema, req.body);
    const { snapshot, chat } = await target(body.projectDir, body.chatId);
    res.json(await deps.directRuns.subagent(snapshot, chat, body.agent, body.task));
  });

  router.post("/api/tools/dispatch", async (req, res) => {
    const body = parseWith(dispatchBodySchema, req.body);
    const { snapshot, chat } = await target(body.projectDir, body.chatId);
    res.json(await deps.directRuns.dispatch(snapshot, chat, body.tool, body.arguments, body.callId));
  });

  router.post("/api/actions/:id/run", async (req, res) => {
    const body = parseWith(actionRunBodySchema, req.body);
    const { snapshot, chat } = await target(body.projectDir, body.chatId);
    res.json(await deps.directRuns.action(snapshot, chat, req.params.id));
  });

  return router;
}
