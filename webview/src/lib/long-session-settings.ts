// Settings, App defaults, Long sessions: the fields as typed, read into the values `chat.compaction`
// and `chat.contextWindow` take (null: remove the app's value, so the default applies), and the saved
// values written back as the fields show them. Pure; the server checks the same bounds
// (src/shared/compaction.ts, src/shared/settings.ts) and answers 400 past them.
import { COMPACTION_DEFAULTS } from "$shared/compaction";
import type { LimitInput } from "./chat-limits";

export const DEFAULT_CONTEXT_WINDOW = 128_000;
export const THRESHOLD_PERCENT = { min: 50, max: 95, default: Math.round(COMPACTION_DEFAULTS.threshold * 100) };
export const KEEP_RECENT = { min: 0, max: 10_000_000, default: COMPACTION_DEFAULTS.keepRecentTokens };
export const CONTEXT_WINDOW = { min: 1_000, max: 100_000_000, default: DEFAULT_CONTEXT_WINDOW };
export const MAX_MODEL_ID_CHARS = 200;

/** "Compact at" as a share of the window: 50 to 95 percent (a trailing % is fine); empty: the default. */
export function readThresholdPercent(text: string): LimitInput {
  const trimmed = text.trim().replace(/\s*%$/, "");
  if (trimmed === "") return { ok: true, value: null };
  const { min, max } = THRESHOLD_PERCENT;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed))
    return { ok: false, message: `A percentage of the window from ${min} to ${max}, such as 80.` };
  const percent = Number(trimmed);
  if (percent < min || percent > max)
    return { ok: false, message: `From ${min}% to ${max}% of the window: below ${min}% compacts too often.` };
  // Through whole tenths of a percent, so 70 saves 0.7 and not 0.7000000000000001.
  return { ok: true, value: Math.round(percent * 10) / 1000 };
}

/** The saved share as the field shows it: 0.7 → "70". */
export function thresholdText(value: number | undefined): string {
  return value === undefined ? "" : String(Math.round(value * 1000) / 10);
}

/**
 * A whole number of tokens, with thousands separators or a k/M suffix ("20,000", "20k", "1.5M");
 * empty: the default.
 */
export function readTokens(text: string, bounds: { min: number; max: number }): LimitInput {
  const trimmed = text.trim().replace(/[,_\s]/g, "");
  if (trimmed === "") return { ok: true, value: null };
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(trimmed);
  const span = `${bounds.min.toLocaleString()} to ${bounds.max.toLocaleString()} tokens`;
  if (!match) return { ok: false, message: `A whole number of tokens, from ${span}, such as 20000 or 20k.` };
  const scale = { "": 1, k: 1_000, m: 1_000_000 }[match[2]!.toLowerCase() as "" | "k" | "m"];
  const exact = Number(match[1]) * scale;
  // 1.15 × 1000 is 1149.9999999999998 in floating point: a whole number within rounding is whole.
  const value = Math.round(exact);
  if (Math.abs(exact - value) > 1e-6) return { ok: false, message: `A whole number of tokens, from ${span}.` };
  if (value < bounds.min || value > bounds.max) return { ok: false, message: `From ${span}.` };
  return { ok: true, value };
}

/** The compaction model: any model id, or empty for the chat's own model. */
export function readModelId(text: string): { ok: true; value: string | null } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  if (trimmed.length > MAX_MODEL_ID_CHARS)
    return { ok: false, message: `A model id of at most ${MAX_MODEL_ID_CHARS} characters.` };
  return { ok: true, value: trimmed };
}
