// Turns a failed gateway call into the contract's 502 upstream_error, with the upstream status.
import { AppError } from "../platform/app-error";
import { UpstreamError } from "../gateway/http";

export async function upstreamCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof UpstreamError) throw new AppError("upstream_error", error.message, undefined, error.status);
    const code = (error as NodeJS.ErrnoException).code;
    throw new AppError("upstream_error", `cannot reach the gateway${code ? ` (${code})` : ""}`);
  }
}
