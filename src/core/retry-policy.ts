// When and how long to wait before retrying an upstream request that failed before any token.

export const MAX_RETRIES = 3;
const MAX_DELAY_MS = 10_000;

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Exponential backoff with jitter, or the server's Retry-After (seconds) when it gives one. */
export function retryDelayMs(attempt: number, baseMs: number, retryAfter?: string | null, random = Math.random): number {
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_DELAY_MS);
  const exponential = baseMs * 2 ** attempt;
  return Math.min(exponential / 2 + random() * (exponential / 2), MAX_DELAY_MS);
}
