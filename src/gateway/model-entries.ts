// The user's `models[]` settings entries, read once with their schema: the price a user set for a
// model and the models the user marked as transcription models. Pure.
import { modelEntrySchema, type ModelEntry } from "../shared/settings";
import type { Pricing } from "../chat/usage";

/** Every valid `models[]` entry of resolved settings; a damaged entry is skipped, not fatal. */
export function modelEntries(settings: Record<string, unknown>): ModelEntry[] {
  const list = settings.models;
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw) => {
    const parsed = modelEntrySchema.safeParse(raw);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The price per token the user set for `modelId`, if any. */
export function userPricing(entries: readonly ModelEntry[], modelId: string): Pricing | undefined {
  return entries.find((e) => e.id === modelId)?.pricing;
}
