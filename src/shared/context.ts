// The context meter's shape (contract 7.3), shared by the stream's `context` event, the
// GET /api/chats/:id/context route and the UI.
import { z } from "zod";

export const contextLayersSchema = z.object({
  system: z.number().int().nonnegative(),
  instructions: z.number().int().nonnegative(),
  tools: z.number().int().nonnegative(),
  files: z.number().int().nonnegative(),
  history: z.number().int().nonnegative(),
  toolOutputs: z.number().int().nonnegative(),
  summary: z.number().int().nonnegative(),
});

export const contextReportSchema = z.object({
  used: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  layers: contextLayersSchema,
  source: z.enum(["estimate", "upstream"]),
  /** Of the tool definitions, each MCP server's share (by server id, largest first; none without MCP tools). */
  mcpServers: z.array(z.object({ server: z.string(), tokens: z.number().int().nonnegative() })).optional(),
  /**
   * GET /api/chats/:id/context only: what sending that request would cost (USD, its prompt alone, no
   * cache discount: an upper bound), from the model's prompt price; null when no price is known.
   */
  nextRequestCost: z.number().nonnegative().nullable().optional(),
});
export type ContextReport = z.infer<typeof contextReportSchema>;
