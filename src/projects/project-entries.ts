// Lists kept in `.app.json` (prompts, agents, actions) read entry by entry: a damaged entry is
// skipped and reported, never allowed to hide the others.
import type { z } from "zod";
import type { LayerIssue } from "../settings/settings-validate";

export function parseEntries<S extends z.ZodType>(
  list: unknown,
  schema: S,
  key: string,
): { items: { index: number; value: z.infer<S> }[]; issues: LayerIssue[] } {
  if (list === undefined) return { items: [], issues: [] };
  if (!Array.isArray(list)) return { items: [], issues: [{ key, message: `${key} must be a list` }] };
  const items: { index: number; value: z.infer<S> }[] = [];
  const issues: LayerIssue[] = [];
  list.forEach((entry, index) => {
    const parsed = schema.safeParse(entry);
    if (parsed.success) items.push({ index, value: parsed.data });
    else
      issues.push({
        key: `${key}[${index}]`,
        message: parsed.error.issues.map((i) => `${[key, index, ...i.path].join(".")}: ${i.message}`).join("; "),
      });
  });
  return { items, issues };
}
