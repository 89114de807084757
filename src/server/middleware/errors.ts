// Turns every failure into the contract's error body. No stack traces or secrets leave the process.
import type { ErrorRequestHandler, RequestHandler } from "express";
import { AppError } from "../../platform/app-error";
import { isApiPath } from "../../platform/http/request-path";
import type { ApiErrorBody } from "../../shared/api-error";

export function errorBody(error: AppError): ApiErrorBody {
  const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
  if (error.issues) body.error.issues = error.issues;
  if (error.upstreamStatus !== undefined) body.error.status = error.upstreamStatus;
  return body;
}

/** Body-parser and other http-errors style failures, mapped onto contract codes. */
function fromHttpError(error: { type?: string; status?: number; message?: string }): AppError | undefined {
  if (error.type === "entity.too.large") return new AppError("payload_too_large", "the request body is too large");
  if (error.type === "entity.parse.failed")
    return new AppError("invalid_request", "the request body is not valid JSON");
  if (error.type === "encoding.unsupported" || error.type === "charset.unsupported") {
    return new AppError("invalid_request", "the request body encoding is not supported");
  }
  if (typeof error.status === "number" && error.status >= 400 && error.status < 500) {
    return new AppError("invalid_request", "the request could not be read");
  }
  return undefined;
}

export function errorHandler(log: (line: string) => void): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const appError = error instanceof AppError ? error : fromHttpError(error ?? {});
    const final = appError ?? new AppError("internal", "Parley hit an unexpected error; see its log");
    if (!appError) log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (res.headersSent) {
      res.end();
      return;
    }
    res.status(final.status).json(errorBody(final));
  };
}

/** Any spelling of an `/api` path that no route took: 404 in the contract's shape, never the web UI. */
export const apiNotFound: RequestHandler = (req, _res, next) => {
  if (!isApiPath(req.path)) return next();
  next(new AppError("not_found", `no route ${req.method} ${req.path.slice(0, 200)}`));
};
