// Project agents (subagent personas) and custom actions, from `.app.json` keys `agents` and `actions`.
import { z } from "zod";

/** What `@name` in the composer and a chat's `agent` refer to; the key of an agent in the list. */
export const agentNameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    "agent names start with a letter or digit and use letters, digits, '.', '_' and '-' (at most 64)",
  );

export const agentSchema = z.looseObject({
  name: agentNameSchema,
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

/**
 * A tool an agent may use: a native tool's name, a narrower grant of one (`file:read`), or an MCP
 * tool's id (`mcp__<server>__<tool>`).
 */
export const agentToolSchema = z
  .string()
  .regex(
    /^(?:[a-z_]{1,40}(?::[a-z_]{1,20})?|mcp__[a-z0-9-]{1,32}__\S{1,128})$/,
    "a tool's name, or an MCP tool's id mcp__server__tool",
  );

/**
 * An agent as the Agents page writes it (POST and PUT /api/agents). An absent field is unset: no
 * model pin, every project tool (`tools: []` is no tool at all), no prompt.
 */
export const agentInputSchema = z.strictObject({
  name: agentNameSchema,
  description: z.string().max(2_000).optional(),
  model: z.string().trim().min(1, "the model pin must not be empty").max(200).optional(),
  tools: z.array(agentToolSchema).max(500).optional(),
  promptId: z.string().min(1).max(64).optional(),
});
export type AgentInput = z.infer<typeof agentInputSchema>;

export const agentWriteBodySchema = z.strictObject({ projectDir: z.string(), agent: agentInputSchema });

/** An agent as GET /api/agents lists it. */
export const agentEntrySchema = z.object({
  name: z.string(),
  description: z.string(),
  model: z.string().optional(),
  tools: z.array(z.string()).optional(),
  promptId: z.string().optional(),
  /** One of Parley's own agents (Plan): not in `.app.json`, so it cannot be edited or deleted. */
  builtIn: z.boolean().optional(),
});
export type AgentEntry = z.infer<typeof agentEntrySchema>;

/** An action as GET /api/actions lists it (what it runs stays on the server). */
export const actionEntrySchema = z.object({ id: z.string(), label: z.string(), description: z.string() });
export type ActionEntry = z.infer<typeof actionEntrySchema>;
