// The check every screen gets: at 320 px (the side panel's width), in the browser's light and dark
// themes, nothing scrolls sideways and axe-core finds no serious or critical violation. `show` brings
// a fresh page (its own context, so its own theme) to the screen; a screenshot of each is kept.
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { seriousViolations } from "./axe";
import { screenshot } from "./browser";

export async function checkNarrowInBothThemes(
  browser: Browser,
  name: string,
  show: (page: Page) => Promise<unknown>,
): Promise<void> {
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ viewport: { width: 320, height: 900 }, colorScheme });
    try {
      const page = await context.newPage();
      await show(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 320, `${colorScheme}: nothing sticks out sideways at 320 px (page is ${width} px wide)`);
      await screenshot(page, `${name}-320-${colorScheme}`);
      const violations = await seriousViolations(page);
      assert.deepEqual(violations, [], `${colorScheme}: ${JSON.stringify(violations, null, 2)}`);
    } finally {
      await context.close();
    }
  }
}
