// Uniform usage accounting: the same shape for every provider, per turn and in totals.
import { z } from "zod";

export const usageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  /** Prompt tokens written to the vendor's cache (contract 7.3); 0 in answers stored before it was kept. */
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  reasoningTokens: z.number().int().nonnegative(),
  /** USD; null when neither the gateway nor the live prices could say. */
  cost: z.number().nonnegative().nullable(),
  costSource: z.enum(["gateway", "estimate"]),
});
export type Usage = z.infer<typeof usageSchema>;

export const usageTotalsSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  cachedTokens: z.number(),
  reasoningTokens: z.number(),
  /** USD; null when any turn's cost is unknown (a self-hosted server without a price set). */
  cost: z.number().nullable(),
  /** Turns whose cost is unknown, so the UI can say how many. */
  unknownCostTurns: z.number(),
  turns: z.number(),
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

export const usageQuerySchema = z.object({
  projectDir: z.string().optional(),
  groupBy: z.enum(["model", "day"]).default("model"),
  from: z.iso.date().or(z.iso.datetime()).optional(),
  to: z.iso.date().or(z.iso.datetime()).optional(),
});

export const usageRowSchema = z.object({
  key: z.string(),
  promptTokens: z.number(),
  completionTokens: z.number(),
  /** null when any turn in the group had no known cost. */
  cost: z.number().nullable(),
  unknownCostTurns: z.number(),
  turns: z.number(),
});
export type UsageRow = z.infer<typeof usageRowSchema>;
