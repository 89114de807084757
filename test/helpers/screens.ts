// A screen checked at the side panel's width (320 px) and a desktop one (1280 px), each in the
// browser's light and dark themes: nothing scrolls sideways, axe-core finds no serious or critical
// violation, and a screenshot of each is kept. `show` brings a fresh page (its own context, so its own
// theme and width) to the screen.
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "./axe";
import { screenshot } from "./browser";

export const SCREEN_WIDTHS = [320, 1280] as const;

export async function checkScreens(
  browser: Browser,
  name: string,
  show: (page: Page, width: number) => Promise<unknown>,
): Promise<void> {
  const failures: string[] = [];
  for (const width of SCREEN_WIDTHS)
    for (const colorScheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      try {
        const page = await context.newPage();
        await show(page, width);
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (scrollWidth > width) failures.push(`${width} ${colorScheme}: the page is ${scrollWidth} px wide`);
        await screenshot(page, `${name}-${width}-${colorScheme}`);
        const violations = await seriousViolations(page);
        if (violations.length > 0) failures.push(`${width} ${colorScheme}: ${JSON.stringify(violations, null, 2)}`);
      } finally {
        await context.close();
      }
    }
  assert.deepEqual(failures, []);
}
