// Account balance: GET {base}/credits needs a management key on some accounts; an ordinary or
// sign-in key reads GET {base}/key (its own usage and limit) instead, so fall back to that.
// Self-hosted servers (vLLM, Ollama, LiteLLM, `transformers serve`) have neither: that is
// `{supported:false}`, not a failure.
import type { Credits, CreditsAnswer } from "../shared/gateway";
import { readJson, UpstreamError, type GatewayConnection } from "./http";

type Json = Record<string, unknown>;
const data = (body: unknown): Json => {
  const value = typeof body === "object" && body !== null ? (body as Json).data : undefined;
  return typeof value === "object" && value !== null ? (value as Json) : {};
};
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** The route does not exist on this server (404, 405 or 501), as opposed to a failure. */
const isMissingRoute = (error: unknown) => error instanceof UpstreamError && [404, 405, 501].includes(error.status);
const isRefused = (error: unknown) => error instanceof UpstreamError && (error.status === 401 || error.status === 403);

async function accountCredits(connection: GatewayConnection): Promise<Credits | undefined> {
  const credits = data(await readJson(connection, "/credits"));
  const total = num(credits.total_credits);
  const used = num(credits.total_usage);
  // A 200 without the numbers is some other server's page, not a balance.
  if (total === null && used === null) return undefined;
  return {
    source: "credits",
    totalCredits: total,
    totalUsage: used,
    balance: total !== null && used !== null ? total - used : null,
  };
}

async function keyCredits(connection: GatewayConnection): Promise<Credits | undefined> {
  const key = data(await readJson(connection, "/key"));
  const limit = num(key.limit);
  const usage = num(key.usage);
  const remaining = num(key.limit_remaining);
  if (limit === null && usage === null && remaining === null) return undefined;
  return {
    source: "key",
    totalCredits: limit,
    totalUsage: usage,
    balance: remaining,
    note:
      limit === null
        ? "This key cannot read the account balance; it has no spending limit of its own. Its usage is shown."
        : "This key cannot read the account balance; its own spending limit and usage are shown.",
  };
}

export async function fetchCredits(connection: GatewayConnection): Promise<CreditsAnswer> {
  try {
    const credits = await accountCredits(connection);
    if (credits) return credits;
  } catch (error) {
    if (!isRefused(error) && !isMissingRoute(error)) throw error;
  }
  try {
    return (await keyCredits(connection)) ?? { supported: false };
  } catch (error) {
    if (isMissingRoute(error)) return { supported: false };
    throw error;
  }
}
