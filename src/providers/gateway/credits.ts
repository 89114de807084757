// Account balance: GET {base}/credits needs a management key on some accounts; an ordinary or
// sign-in key reads GET {base}/key (its own usage and limit) instead, so fall back to that.
import type { Credits } from "../../shared/gateway";
import { readJson, UpstreamError, type GatewayConnection } from "./http";

type Json = Record<string, unknown>;
const data = (body: unknown): Json => {
  const value = typeof body === "object" && body !== null ? (body as Json).data : undefined;
  return typeof value === "object" && value !== null ? (value as Json) : {};
};
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export async function fetchCredits(connection: GatewayConnection): Promise<Credits> {
  try {
    const credits = data(await readJson(connection, "/credits"));
    const total = num(credits.total_credits);
    const used = num(credits.total_usage);
    return { source: "credits", totalCredits: total, totalUsage: used, balance: total !== null && used !== null ? total - used : null };
  } catch (error) {
    if (!(error instanceof UpstreamError) || (error.status !== 401 && error.status !== 403)) throw error;
  }
  const key = data(await readJson(connection, "/key"));
  const limit = num(key.limit);
  return {
    source: "key",
    totalCredits: limit,
    totalUsage: num(key.usage),
    balance: num(key.limit_remaining),
    note:
      limit === null
        ? "This key cannot read the account balance; it has no spending limit of its own. Its usage is shown."
        : "This key cannot read the account balance; its own spending limit and usage are shown.",
  };
}
