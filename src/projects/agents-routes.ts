// /api/agents and /api/actions: the project's agents (listed, created, edited, deleted) and saved custom actions.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { ProjectRegistry } from "./project-registry";
import type { SettingsService } from "../settings/settings-service";
import type { PromptService } from "../prompts/prompt-service";
import { createAgent, deleteAgent, setAgentPrompt, updateAgent } from "./agent-settings";
import { created, route } from "../platform/http/define-route";
import { BUILT_IN_AGENT_NAMES, BUILT_IN_AGENTS } from "./built-in-agents";

export function agentRoutes(deps: {
  settings: SettingsService;
  projects: ProjectRegistry;
  prompts: PromptService;
}): Router {
  const router = routeRouter();
  const snapshot = async (projectDir: string) => deps.settings.snapshot(await deps.projects.lookup(projectDir));

  // Damaged entries in .app.json are skipped; the header says how many, the settings view says which.
  // Parley's own agents (Plan) come last; a project's agent under one of their names is skipped too.
  route(router, "GET /api/agents", async ({ query, res }) => {
    const { agents, issues } = (await snapshot(query.projectDir)).agents;
    const own = agents.filter((agent) => !BUILT_IN_AGENT_NAMES.has(agent.name));
    const skipped = issues.length + agents.length - own.length;
    if (skipped > 0) res.setHeader("X-Parley-Skipped-Entries", String(skipped));
    return [
      ...own.map(({ name, description, model, tools, promptId }) => ({
        name,
        description,
        ...(model ? { model } : {}),
        ...(tools ? { tools } : {}),
        ...(promptId ? { promptId } : {}),
      })),
      ...BUILT_IN_AGENTS.map(({ name, description, tools }) => ({
        name,
        description,
        tools: [...tools],
        builtIn: true,
      })),
    ];
  });

  // Agents are text sent upstream, never run by themselves: writing one needs no trust (contract 7.1),
  // and a write Parley makes keeps the trust the project had.
  route(router, "POST /api/agents", async ({ body }) =>
    created(await createAgent(deps, await deps.projects.resolveDir(body.projectDir), body.agent)),
  );

  route(router, "PUT /api/agents/:name", async ({ params, body }) =>
    updateAgent(deps, await deps.projects.resolveDir(body.projectDir), params.name, body.agent),
  );

  route(router, "DELETE /api/agents/:name", async ({ params, query }) => {
    await deleteAgent(deps, await deps.projects.resolveDir(query.projectDir), params.name);
  });

  /** Sets only an agent's prompt; everything else about the agent stays as written. */
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
