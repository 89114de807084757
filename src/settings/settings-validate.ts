// Validation of a stored settings layer, key by key, so one bad value never hides the good ones.
import type { z } from "zod";
import { ownValue, setOwn, type JsonObject } from "./settings-merge";

export type LayerIssue = { key: string; message: string };

/**
 * Keeps each known key whose value matches its schema, drops the ones that do not
 * (reporting them), and passes unknown keys through untouched.
 */
export function validateLayer(
  layer: JsonObject,
  shape: Record<string, z.ZodType>,
): { value: JsonObject; issues: LayerIssue[] } {
  const value: JsonObject = {};
  const issues: LayerIssue[] = [];
  for (const [key, raw] of Object.entries(layer)) {
    // Own keys only: a key such as `toString` or `constructor` must not find a built-in.
    const schema = ownValue(shape, key);
    if (!schema) {
      setOwn(value, key, raw);
      continue;
    }
    const parsed = schema.safeParse(raw);
    if (parsed.success) setOwn(value, key, parsed.data);
    else
      issues.push({
        key,
        message: parsed.error.issues.map((i) => `${[key, ...i.path].join(".")}: ${i.message}`).join("; "),
      });
  }
  return { value, issues };
}

/** The zod issues for the keys a patch touched, checked on the merged result. */
export function issuesForTouchedKeys(
  merged: JsonObject,
  touched: string[],
  shape: Record<string, z.ZodType>,
): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  for (const key of touched) {
    const schema = ownValue(shape, key);
    if (!schema || !Object.hasOwn(merged, key)) continue;
    const parsed = schema.safeParse(merged[key]);
    if (!parsed.success) issues.push(...parsed.error.issues.map((i) => ({ ...i, path: [key, ...i.path] })));
  }
  return issues;
}

/**
 * A project layer, validated, without the keys only the app may set: a cloned repository's
 * `.app.json` must not lift the user's step limit or budget (`chat`), add allowed hosts or change
 * where dictation goes. Such a key stays in the file and is reported as ignored.
 */
export function validateProjectLayer(
  layer: JsonObject,
  shape: Record<string, z.ZodType>,
  appOnlyKeys: readonly string[],
): { value: JsonObject; issues: LayerIssue[] } {
  const { value, issues } = validateLayer(layer, shape);
  for (const key of appOnlyKeys) {
    if (!Object.hasOwn(value, key)) continue;
    delete value[key];
    issues.push({ key, message: `${key} is an app setting: a project cannot set it, so it is ignored` });
  }
  return { value, issues };
}
