// Project agents (subagent personas) and custom actions, from `.app.json` keys `agents` and `actions`.
import { z } from "zod";

export const agentSchema = z.looseObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "agent names use letters, digits, '.', '_' and '-'"),
  description: z.string().default(""),
  /** Pinned model slug. */
  model: z.string().min(1).optional(),
  /** The agent's own tool allowlist. */
  tools: z.array(z.string()).optional(),
  promptId: z.string().min(1).optional(),
});
export type Agent = z.infer<typeof agentSchema>;

/** What an action runs: a shell command (needs the project's trust), or a tool with arguments. */
export const actionRunSchema = z.union([
  z.strictObject({ shell: z.string().min(1) }),
  z.strictObject({ tool: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() }),
]);

export const actionSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  label: z.string().min(1),
  description: z.string().default(""),
  run: actionRunSchema.optional(),
});
export type Action = z.infer<typeof actionSchema>;

/** An agent as GET /api/agents lists it. */
export const agentEntrySchema = z.object({
  name: z.string(),
  description: z.string(),
  model: z.string().optional(),
  tools: z.array(z.string()).optional(),
  promptId: z.string().optional(),
});
export type AgentEntry = z.infer<typeof agentEntrySchema>;

/** An action as GET /api/actions lists it (what it runs stays on the server). */
export const actionEntrySchema = z.object({ id: z.string(), label: z.string(), description: z.string() });
export type ActionEntry = z.infer<typeof actionEntrySchema>;
