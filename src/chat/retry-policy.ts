// When and how long to wait before retrying an upstream request that failed before any token.

export const MAX_RETRIES = 3;
const MAX_DELAY_MS = 10_000;

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * Words that say the model itself is missing, whatever the status. Self-hosted servers answer that
 * with a 500 (`transformers serve` tries to download an unknown id and fails) or 404; no retry
 * can make the model appear, and each retry may start another download.
 */
const MODEL_MISSING =
  /\b(?:model|repository|repo)\b.{0,200}?\b(?:does not exist|doesn't exist|not found|is not a valid model|not a local folder|no such)\b|\b(?:unknown|invalid) model\b|\bno such model\b|\bnot a valid model (?:id|identifier)\b/i;

/** Words that say the key is wrong or lacks a right: no retry helps either. */
const ACCESS_DENIED =
  /\b(?:invalid|incorrect|missing|no) (?:api )?key\b|\bunauthori[sz]ed\b|\bauthentication\b|\bpermission denied\b|\bforbidden\b/i;

/**
 * Whether a retry can help a failure with this status (undefined when the server gave none, as in
 * a bare `{"error":"…"}` chunk) and message: 408, 429 and 5xx can, unless the message says the model
 * does not exist or the key is refused; 4xx never.
 */
export function isRetryableFailure(status: number | undefined, message: string): boolean {
  if (MODEL_MISSING.test(message)) return false;
  if (status === undefined) return !ACCESS_DENIED.test(message);
  return isRetryableStatus(status);
}

/** Exponential backoff with jitter, or the server's Retry-After (seconds) when it gives one. */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  retryAfter?: string | null,
  random = Math.random,
): number {
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_DELAY_MS);
  const exponential = baseMs * 2 ** attempt;
  return Math.min(exponential / 2 + random() * (exponential / 2), MAX_DELAY_MS);
}
