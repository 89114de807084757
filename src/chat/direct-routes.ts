// Direct runs from the composer: route a text, run an agent, dispatch a tool, run an action.
import type { Router } from "express";
import { invalid } from "../platform/app-error";
import { routeComposerText } from "./composer-route";
import type { ChatService } from "./chat-service";
import type { DirectRuns } from "./direct-runs";
import type { ProjectRegistry } from "../projects/project-registry";
import type { SettingsService } from "../settings/settings-service";
import { route } from "../platform/http/define-route";
import { routeRouter } from "../platform/http/router";

export type DirectRoutesDeps = {
  settings: SettingsService;
  projects: ProjectRegistry;
  chatService: ChatService;
  directRuns: DirectRuns;
};

export function directRoutes(deps: DirectRoutesDeps): Router {
  const router = routeRouter();

  /** The project and the chat of a run; the chat must belong to the project. */
  const target = async (projectDir: string, chatId: string) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.resolveDir(projectDir));
    const chat = deps.chatService.get(chatId);
    if (chat.projectId !== snapshot.project.id) throw invalid("the chat does not belong to that project");
    return { snapshot, chat };
  };

  route(router, "POST /api/composer/route", async ({ body }) => {
    const snapshot = await deps.settings.snapshot(await deps.projects.lookup(body.projectDir));
    return routeComposerText(body.text, {
      agents: snapshot.agents.agents.map((a) => a.name),
      actions: snapshot.actions.actions.map((a) => a.id),
    });
  });

  route(router, "POST /api/tools/subagent", async ({ body }) => {
    const { snapshot, chat } = await target(body.projectDir, body.chatId);
    return deps.directRuns.subagent(snapshot, chat, body.agent, body.task);
  });

  route(router, "POST /api/tools/dispatch", async ({ body }) => {
    const { snapshot, chat } = await target(body.projectDir, body.chatId);
    return deps.directRuns.dispatch(snapshot, chat, body.tool, body.arguments, body.callId);
  });

  route(router, "POST /api/actions/:id/run", async ({ params, body }) => {
    const { snapshot, chat } = await target(body.projectDir, body.chatId);
    return deps.directRuns.action(snapshot, chat, params.id);
  });

  return router;
}
