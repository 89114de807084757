// The contract's error body: every failing response carries exactly this shape.
import { z } from "zod";

export const errorCodeSchema = z.enum([
  "invalid_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "rate_limited",
  "credential_origin_mismatch",
  "upstream_error",
  "internal",
]);
export type ErrorCode = z.infer<typeof errorCodeSchema>;

export const apiErrorBodySchema = z.object({
  error: z.object({
    code: errorCodeSchema,
    message: z.string(),
    issues: z.array(z.unknown()).optional(),
    status: z.number().int().optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;
