// Request validation: zod in, the contract's 400 out. define-route.ts parses every declared query and
// body with it, so a handler only ever sees input its route's schemas accepted.
import type { z } from "zod";
import { invalid } from "../../core/app-error";

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "the request body"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(`${what} is invalid`, parsed.error.issues);
  return parsed.data;
}
