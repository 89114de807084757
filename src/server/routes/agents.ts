// /api/agents and /api/actions: the project's agents and saved custom actions.
import type { Router } from "express";
import { routeRouter } from "./router";
import type { ProjectRegistry } from "../../services/project-registry";
import type { SettingsService } from "../../services/settings-service";
import type { PromptService } from "../../services/prompt-service";
import { setAgentPrompt } from "../../services/agent-settings";
import { parseWith } from "../middleware/validation";
import { z } from "zod";

const agentPromptBody = z.strictObject({ projectDir: z.string(), promptId: z.string().min(1).nullable() });

export function agentRoutes(deps: { settings: SettingsService; projects: ProjectRegistry; prompts: PromptService }): Router {
  const router = routeRouter();
  const snapshot = async (projectDir: unknown) => deps.settings.snapshot(await deps.projects.lookup(projectDir));

  router.get("/api/agents", async (req, res) => {
    const { agents, issues } = (await snapshot(req.query.projectDir)).agents;
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    res.json(agents.map(({ name, description, model, tools, promptId }) => ({ name, description, ...(model ? { model } : {}), ...(tools ? { tools } : {}), ...(promptId ? { promptId } : {}) })));
  });

  /** The Agents page picks an agent's prompt; everything else about the agent stays as written. */
  router.put("/api/agents/:name/prompt", async (req, res) => {
    const body = parseWith(agentPromptBody, req.body);
    await setAgentPrompt(deps.settings, deps.prompts, await deps.projects.resolveDir(body.projectDir), req.params.name, body.promptId);
    res.status(204).end();
  });

  router.get("/api/actions", async (req, res) => {
    const { actions, issues } = (await snapshot(req.query.projectDir)).actions;
    if (issues.length > 0) res.setHeader("X-Parley-Skipped-Entries", String(issues.length));
    res.json(actions.map(({ id, label, description }) => ({ id, label, description })));
  });

  return router;
}
