// Request validation: zod in, the contract's 400 out. define-route.ts parses every declared query and
// body with it, so a handler only ever sees input its route's schemas accepted.
import type { z } from "zod";
import { invalid } from "../app-error";

export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "the request body"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalid(`${what} is invalid: ${summary(parsed.error.issues)}`, parsed.error.issues);
  return parsed.data;
}

/** The first problems in words, each with the field it is about, so the message alone says what to fix. */
function summary(issues: z.core.$ZodIssue[]): string {
  const shown = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : ""}${issue.message}`);
  return shown.join("; ") + (issues.length > shown.length ? ` (and ${issues.length - shown.length} more)` : "");
}
