// Numbers as people read them in the UI.
import type { Usage } from "../../../src/shared/usage";

export function formatCost(cost: number | null | undefined): string {
  if (cost === null || cost === undefined) return "cost unknown";
  if (cost === 0) return "$0";
  return cost < 0.01 ? `$${cost.toFixed(5)}` : `$${cost.toFixed(3)}`;
}

export function formatUsage(usage: Usage): string {
  const source = usage.costSource === "estimate" ? " (estimated)" : "";
  return `${usage.promptTokens.toLocaleString()} in · ${usage.completionTokens.toLocaleString()} out · ${formatCost(usage.cost)}${source}`;
}

/** Price per million tokens from a USD-per-token price. */
export function perMillion(price: number | undefined): string {
  return price === undefined ? "?" : `$${(price * 1_000_000).toFixed(2)}`;
}
