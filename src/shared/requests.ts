// One upstream request of a chat, as GET /api/chats/:id/requests lists them (contract 7.3).
import { z } from "zod";

export const REQUEST_CAUSES = ["turn", "tool_step", "retry", "compaction", "subagent"] as const;

export const upstreamRequestSchema = z.object({
  turnId: z.string(),
  step: z.number().int().nonnegative(),
  cause: z.enum(REQUEST_CAUSES),
  model: z.string(),
  promptTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  cacheWriteTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cost: z.number().nonnegative().nullable(),
  costSource: z.enum(["gateway", "estimate"]),
  at: z.string(),
});
export type UpstreamRequest = z.infer<typeof upstreamRequestSchema>;
