// axe-core in a real page (or frame: the VS Code panel): the serious and critical accessibility
// violations of the page as it is now.
import assert from "node:assert/strict";
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Frame, Page } from "playwright-core";

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export type AxeViolation = { id: string; impact: string | null; help: string; nodes: string[] };

/** `within`: a CSS selector to check only that part of the page (default: the whole document). */
export async function seriousViolations(page: Page | Frame, within?: string): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const { violations, passed } = await page.evaluate(async (selector) => {
    const axe = (
      window as unknown as {
        axe: { run(context: unknown, options: object): Promise<{ violations: any[]; passes: unknown[] }> };
      }
    ).axe;
    const result = await axe.run(selector ? { include: [selector] } : document, { resultTypes: ["violations"] });
    const found: AxeViolation[] = result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => n.target.join(" ")),
    }));
    return { violations: found, passed: result.passes.length };
  }, within);
  assert.ok(passed > 10, "axe ran its rules on the page");
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
