// Request validation helpers: zod in, the contract's 400 out.
import type { z } from "zod";
import { invalid } from "../../core/app-error";

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "the request body"): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(`${what} is invalid`, parsed.error.issues);
  return parsed.data;
}
