// /api/agents and /api/actions: the project's agents and saved custom actions.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { ProjectRegistry } from "./project-registry";
import type { SettingsService } from "../settings/settings-service";
import type { PromptService } from "../prompts/prompt-service";
import { setAgentPrompt } from "./agent-settings";
import { route } from "../platform/http/define-route";

export function agentRoutes(deps: {
  settings: SettingsService;
  projects: ProjectRegistry;
  prompts: PromptService;
}): Router {
  const router = routeRouter();
  const snapshot = async (projectDir: string) => deps.settings.snapshot(await deps.projects.lookup(projectDir));

  // Damaged entries in .app.json are skipped; the header says how many, the settings view says which.
  route(router, "GET /api/agents", async ({ query, res }) => {
    const { agents, issues } = (await snapshot(query.projectDir)).agents;
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    return agents.map(({ name, description, model, tools, promptId }) => ({
      name,
      description,
      ...(model ? { model } : {}),
      ...(tools ? { tools } : {}),
      ...(promptId ? { promptId } : {}),
    }));
  });

  /** The Agents page picks an agent's prompt; everything else about the agent stays as written. */
  route(router, "PUT /api/agents/:name/prompt", async ({ params, body }) => {
    await setAgentPrompt(
      deps.settings,
      deps.prompts,
      await deps.projects.resolveDir(body.projectDir),
      params.name,
      body.promptId,
    );
  });

  route(router, "GET /api/actions", async ({ query, res }) => {
    const { actions, issues } = (await snapshot(query.projectDir)).actions;
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    return actions.map(({ id, label, description }) => ({ id, label, description }));
  });

  return router;
}
