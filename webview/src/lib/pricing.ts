// Model prices as people type and read them: dollars per million tokens in the UI, dollars per
// token in settings and the API (as the gateway's catalog lists them).
import type { CatalogModel } from "$shared/gateway";

export type TokenPricing = { prompt: number; completion: number };

/** USD per token from what a person typed as USD per million tokens; undefined if it is not a price. */
export function perTokenFromPerMillion(typed: string): number | undefined {
  const text = typed.trim().replace(/^\$/, "");
  if (!/^\d*\.?\d+$|^\d+\.$/.test(text)) return undefined;
  const value = Number(text);
  // Rounded to 12 significant digits, so 0.10 becomes 1e-7 and not 1.0000000000000001e-7.
  return Number.isFinite(value) && value >= 0 && value <= 1_000_000
    ? Number((value / 1_000_000).toPrecision(12))
    : undefined;
}

/** USD per million tokens for an input field, without float noise (0.15, not 0.15000000000000002). */
export function perMillionText(perToken: number): string {
  return String(Number((perToken * 1_000_000).toPrecision(12)));
}

/** A model's prompt and completion prices: the user's own first, else the catalog's, else none. */
export function modelPricing(
  model: Pick<CatalogModel, "id" | "pricing">,
  userPrices: ReadonlyMap<string, TokenPricing>,
): TokenPricing | undefined {
  const own = userPrices.get(model.id);
  if (own) return own;
  const { prompt, completion } = model.pricing;
  return prompt !== undefined && completion !== undefined ? { prompt, completion } : undefined;
}

/** A settings `models` entry as read here: nothing in it is trusted until checked. */
type ModelEntry = { id?: unknown; pricing?: { prompt?: unknown; completion?: unknown } | null };

/** The user's prices by model id, from resolved settings' `models` entries. */
export function userPrices(models: unknown): Map<string, TokenPricing> {
  const out = new Map<string, TokenPricing>();
  if (!Array.isArray(models)) return out;
  for (const entry of models as (ModelEntry | null | undefined)[]) {
    const p = entry?.pricing;
    if (typeof entry?.id === "string" && typeof p?.prompt === "number" && typeof p?.completion === "number")
      out.set(entry.id, { prompt: p.prompt, completion: p.completion });
  }
  return out;
}
