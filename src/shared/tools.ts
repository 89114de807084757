// Tool routes' shapes: approvals, answers, reverts, and the project's tool catalog.
import { z } from "zod";
import { toolGateSchema } from "./settings";

export const approvalBodySchema = z.strictObject({
  decision: z.enum(["allow", "deny"]),
  remember: z.boolean().optional(),
});
export const answerBodySchema = z.strictObject({ answer: z.string().max(100_000) });
export const revertBodySchema = z.strictObject({ force: z.boolean().optional() });

export const revertResultSchema = z.object({ restored: z.array(z.string()), removed: z.array(z.string()) });
export type RevertResult = z.infer<typeof revertResultSchema>;

export const catalogToolSchema = z.object({
  name: z.string(),
  kind: z.enum(["native", "mcp"]),
  description: z.string(),
  parameters: z.unknown().optional(),
  serverId: z.string().optional(),
  server: z.string().optional(),
  gate: toolGateSchema,
  /** An MCP tool listed from the cache while its server is still starting. */
  starting: z.boolean().optional(),
  /** `shell` (and stdio MCP tools): whether it runs in the sandbox (contract 7.5)… */
  sandboxed: z.boolean().optional(),
  /** …and why not, when it does not. */
  sandboxReason: z.string().optional(),
});
export type CatalogTool = z.infer<typeof catalogToolSchema>;

/** Bodies of the direct runs from the composer (contract 6.5, 6.6). */
export const subagentBodySchema = z.strictObject({
  projectDir: z.string(),
  chatId: z.string().min(1),
  agent: z.string().min(1),
  task: z.string().min(1).max(200_000),
});
export const dispatchBodySchema = z.strictObject({
  projectDir: z.string(),
  chatId: z.string().min(1),
  tool: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
  callId: z
    .string()
    .regex(/^[\w-]{1,100}$/)
    .optional(),
});
export const actionRunBodySchema = z.strictObject({ projectDir: z.string(), chatId: z.string().min(1) });
export const composerRouteBodySchema = z.strictObject({ projectDir: z.string(), text: z.string().max(1_000_000) });

/** What Enter does with a composer text (POST /api/composer/route). */
export const composerRouteSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("agent"), agent: z.string(), task: z.string() }),
  z.object({ kind: z.literal("tool"), tool: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  z.object({ kind: z.literal("action"), action: z.string() }),
  z.object({ kind: z.literal("message") }),
]);
export type ComposerRouteResult = z.infer<typeof composerRouteSchema>;

/** A direct subagent run's answer: the agent's final text and the model it ran on. */
export const subagentResultSchema = z.object({
  callId: z.string(),
  agent: z.string(),
  model: z.string(),
  output: z.string(),
});
/** A dispatched tool's (or an action's) result. */
export const dispatchResultSchema = z.object({ callId: z.string(), ok: z.boolean(), output: z.unknown() });
export type DispatchResult = z.infer<typeof dispatchResultSchema>;

/**
 * GET /api/instructions: what a chat preset's synthetic groups can switch on in this project, and
 * whether the project's master switches let them.
 */
export const instructionSourcesSchema = z.object({
  agentFiles: z.object({
    /** The project's `agentFiles` master switch (resolved). */
    enabled: z.boolean(),
    /** `agentFileNames`, as configured. */
    names: z.array(z.string()),
    /** Those of `names` that exist as files inside the project. */
    files: z.array(z.string()),
  }),
  skills: z.object({
    enabled: z.boolean(),
    /** `.agents/skills/<dir>/SKILL.md`, named and described by their front matter. */
    items: z.array(z.object({ name: z.string(), description: z.string(), path: z.string() })),
  }),
});
export type InstructionSources = z.infer<typeof instructionSourcesSchema>;
