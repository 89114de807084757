// The one error type that carries a contract error code; the HTTP layer turns it into the error body.
import type { ErrorCode } from "../shared/api-error";

const STATUS: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  // A 400 of its own code, so the UI can offer to save a key for the new origin.
  credential_origin_mismatch: 400,
  upstream_error: 502,
  internal: 500,
};

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: unknown[],
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const invalid = (message: string, issues?: unknown[]) => new AppError("invalid_request", message, issues);
export const notFound = (message: string) => new AppError("not_found", message);
export const conflict = (message: string) => new AppError("conflict", message);
