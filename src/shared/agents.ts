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

export const actionSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/),
  label: z.string().min(1),
  description: z.string().default(""),
});
export type Action = z.infer<typeof actionSchema>;
