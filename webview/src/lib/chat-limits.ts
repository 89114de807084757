// Settings, App defaults: the agent loop's limits as typed in a text field, read into the values
// `chat.maxSteps` and `chat.maxTurnCost` take (null: remove the app's value, so the default applies).
// Pure; the server checks the same bounds (src/shared/settings.ts) and answers 400 past them.

export const DEFAULT_MAX_STEPS = 50;

export type LimitInput = { ok: true; value: number | null } | { ok: false; message: string };

/** A whole number of steps from 1 to 1000; empty: the default (50). */
export function readMaxSteps(text: string): LimitInput {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, value: null };
  if (!/^\d+$/.test(trimmed)) return { ok: false, message: "A whole number of steps, such as 50." };
  const value = Number(trimmed);
  if (value < 1 || value > 1000) return { ok: false, message: "From 1 to 1000 steps." };
  return { ok: true, value };
}

/** Dollars above 0 and at most 10000 (a leading $ is fine); empty: no budget. */
export function readMaxTurnCost(text: string): LimitInput {
  const trimmed = text.trim().replace(/^\$\s*/, "");
  if (trimmed === "") return { ok: true, value: null };
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed))
    return { ok: false, message: "Dollars, such as 0.50, or empty for no budget." };
  const value = Number(trimmed);
  if (value <= 0 || value > 10_000)
    return { ok: false, message: "More than $0 and at most $10000, or empty for no budget." };
  return { ok: true, value };
}
