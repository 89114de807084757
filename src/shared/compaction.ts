// Compaction's shapes (contract 7.3): its settings, the transcript entry that records one, the
// stream event that announces it, and the edit of its summary.
import { z } from "zod";

export const COMPACTION_REASONS = ["auto", "manual", "overflow"] as const;
export type CompactionReason = (typeof COMPACTION_REASONS)[number];

/** Settings, App defaults, `chat.compaction`; every key optional (the defaults below fill in). */
export const compactionSettingsSchema = z.strictObject({
  /** Compact before a request that would pass the threshold. */
  auto: z.boolean().optional(),
  /** Share of the window past which a request is compacted first. */
  threshold: z.number().min(0.5).max(0.95).optional(),
  /** The model that writes summaries (default: the chat's). */
  model: z.string().min(1).max(200).optional(),
  /** The most recent part of the conversation, kept whole (at most a third of the window is used). */
  keepRecentTokens: z.number().int().min(0).max(10_000_000).optional(),
});
export type CompactionSettingsInput = z.infer<typeof compactionSettingsSchema>;

export const COMPACTION_DEFAULTS = { auto: true, threshold: 0.8, keepRecentTokens: 20_000 } as const;

/** An edited summary longer than this is refused with 413 (a summary is a page, not a transcript). */
export const MAX_SUMMARY_CHARS = 100_000;

/** What a compaction entry (a transcript message of role `compaction`) keeps in its `meta`. */
export const compactionMetaSchema = z.object({
  reason: z.enum(COMPACTION_REASONS),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  prunedOutputs: z.number().int().nonnegative(),
  /** The tool calls whose outputs are sent as a one-line stub from this entry on. */
  pruned: z.array(z.string()),
  /** The last message the summary covers (absent when the entry only pruned and no summary came before). */
  through: z.string().optional(),
  /** The model that wrote the summary. */
  model: z.string().optional(),
  /** Set once the user has changed the summary. */
  edited: z.boolean().optional(),
  /** The turn that compacted before one of its requests (none for Compact now). */
  turnId: z.string().optional(),
});
export type CompactionMeta = z.infer<typeof compactionMetaSchema>;

/** Stream event `compaction`. */
export const compactionEventSchema = z.object({
  id: z.string(),
  reason: z.enum(COMPACTION_REASONS),
  tokensBefore: z.number().int().nonnegative(),
  tokensAfter: z.number().int().nonnegative(),
  prunedOutputs: z.number().int().nonnegative(),
  summary: z.string().optional(),
});
export type CompactionEvent = z.infer<typeof compactionEventSchema>;

/** PATCH /api/chats/:id/compactions/:cid; the length is checked by the route (413, not 400). */
export const patchCompactionBodySchema = z.strictObject({ summary: z.string().trim().min(1, "the summary is empty") });
