// Numbers as people read them in the UI.
import type { Usage, UsageTotals } from "$shared/usage";
import type { TokenPricing } from "./pricing";

export function formatCost(cost: number | null | undefined): string {
  if (cost === null || cost === undefined) return "cost unknown";
  if (cost === 0) return "$0";
  // A local model's few tokens can cost less than the smallest figure shown: never show it as $0.
  if (cost < 0.00001) return "< $0.00001";
  return cost < 0.01 ? `$${cost.toFixed(5)}` : `$${cost.toFixed(3)}`;
}

export function formatUsage(usage: Usage): string {
  const source = usage.costSource === "estimate" && usage.cost !== null ? " (estimated)" : "";
  const cached = formatCachedShare(usage);
  return `${usage.promptTokens.toLocaleString()} in · ${usage.completionTokens.toLocaleString()} out · ${formatCost(usage.cost)}${source}${cached ? ` · ${cached}` : ""}`;
}

/**
 * How much of a turn's prompt the vendor read from its cache: "82% cached", or "" when nothing was.
 * A few cached tokens never read as 0%, nearly all never as 100%, and a count over the prompt (a
 * vendor's rounding) never over 100%.
 */
export function formatCachedShare(usage: Pick<Usage, "promptTokens" | "cachedTokens">): string {
  if (!(usage.cachedTokens > 0) || !(usage.promptTokens > 0)) return "";
  const rounded = Math.round((usage.cachedTokens / usage.promptTokens) * 100);
  // 100% only when all of it was: 199 of 200 reads 99%.
  const percent = Math.min(usage.cachedTokens >= usage.promptTokens ? 100 : 99, Math.max(1, rounded));
  return `${percent}% cached`;
}

/** A chat's total cost; unknown as soon as one turn's cost is, saying for how many turns. */
export function formatTotalCost(totals: Pick<UsageTotals, "cost" | "unknownCostTurns" | "turns">): string {
  if (totals.cost !== null) return formatCost(totals.cost);
  const unknown = totals.unknownCostTurns ?? totals.turns;
  return unknown >= totals.turns ? "cost unknown" : `cost unknown (${unknown} of ${totals.turns} turns)`;
}

/** Price per million tokens from a USD-per-token price. */
export function perMillion(price: number | undefined): string {
  return price === undefined ? "?" : `$${(price * 1_000_000).toFixed(2)}`;
}

/** "$0.15 / $0.60 per 1M", or nothing when the price is not known: a price is never invented. */
export function priceLabel(pricing: TokenPricing | undefined): string {
  return pricing ? `${perMillion(pricing.prompt)} / ${perMillion(pricing.completion)} per 1M` : "";
}

/** A length of text in words a reader takes in at once: "820 characters", "48 KB", "4.8 MB". */
export function formatBytes(chars: number): string {
  if (chars < 1_000) return `${chars} characters`;
  if (chars < 1_000_000) return `${Math.round(chars / 1_000)} KB`;
  return `${(chars / 1_000_000).toFixed(1)} MB`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Midnight (local time) of the day `time` falls on. */
function dayStart(time: number): number {
  const day = new Date(time);
  day.setHours(0, 0, 0, 0);
  return day.getTime();
}

/**
 * When something happened, as a list says it: "just now", "5 min ago", "3 h ago" (today), "yesterday",
 * "4 days ago" (this week), then the date ("Mar 4", with the year when it is not this one). A time
 * ahead of `now` (another machine's clock) reads "just now". `fullDate` says it exactly, for a tooltip.
 */
export function relativeTime(iso: string, now: number, locale?: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return "";
  const elapsed = now - time;
  if (elapsed < MINUTE) return "just now";
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  const days = Math.round((dayStart(now) - dayStart(time)) / (24 * HOUR));
  if (days === 0) return `${Math.floor(elapsed / HOUR)} h ago`;
  if (days === 1) return "yesterday";
  if (days < 7) return `${days} days ago`;
  const sameYear = new Date(time).getFullYear() === new Date(now).getFullYear();
  return new Date(time).toLocaleDateString(locale, {
    month: "short",
    day: "numeric",
    ...(sameYear ? {} : { year: "numeric" }),
  });
}

/** The date and time in full ("March 4, 2025 at 14:05"), for a title beside a relative time. */
export function fullDate(iso: string, locale?: string): string {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? "" : new Date(time).toLocaleString(locale, { dateStyle: "long", timeStyle: "short" });
}
