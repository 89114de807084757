// The "Context" meter (issue 35) in a real Chromium at 320 px, light, dark and forced colours: a
// chat shows how full its model's window is once a turn has run, the meter opens onto the request's
// layers, an answer read partly from the vendor's cache says how much, an answer's usage line opens
// onto a table of its turn's requests, and axe finds nothing serious.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { seriousViolations } from "../helpers/axe";
import { screenshot } from "../helpers/browser";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { chooseModel } from "../helpers/model-picker";

describe("web UI: the context meter", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;

  before(async function () {
    ui = await startBrowserStack(this);
  });
  after(() => ui?.stop());

  async function say(page: Page, text: string): Promise<void> {
    await page.getByLabel("Message").fill(text);
    await page.getByLabel("Message").press("Enter");
    await page.locator(".composer vscode-button", { hasText: "Send" }).waitFor();
  }

  it("at 320 px, light, dark and forced colours, shows used / limit, opens onto the layers, and says how much was cached", async () => {
    const { stack, browser } = ui!;
    // Forced colours (Windows high contrast) drop backgrounds: the bar's fill must still show.
    const themes = [
      { colorScheme: "light", forcedColors: "none" },
      { colorScheme: "dark", forcedColors: "none" },
      { colorScheme: "dark", forcedColors: "active" },
    ] as const;
    for (const { colorScheme, forcedColors } of themes) {
      const name = forcedColors === "active" ? "forced-colors" : colorScheme;
      const context = await browser.newContext({ viewport: { width: 320, height: 700 }, colorScheme, forcedColors });
      try {
        const page = await context.newPage();
        await page.goto(`${stack.url}/?token=${stack.token}`);
        await page.getByRole("button", { name: "New chat" }).click();
        await page.locator(".chat-view").waitFor();
        await chooseModel(page, "fake/echo");
        await say(page, `Hello from the ${name} theme`);
        await page.locator(".message.assistant", { hasText: "You said:" }).waitFor();

        const meter = page.getByRole("region", { name: "Context" });
        const toggle = meter.getByRole("button", { name: /Context/ });
        await toggle.filter({ hasText: /\/ 128k tokens/ }).waitFor();
        const figure = (await toggle.textContent())!;
        const [, used] = figure.match(/([\d.]+k?) \/ 128k tokens · (\d+)%/) ?? [];
        assert.ok(used && Number.parseFloat(used) > 0, `a non-zero figure of 128k: ${figure}`);
        assert.equal(await toggle.getAttribute("aria-expanded"), "false");

        await toggle.click();
        assert.equal(await toggle.getAttribute("aria-expanded"), "true");
        const layers = meter.locator("dt");
        assert.deepEqual(await layers.allTextContents(), [
          "System",
          "Instructions",
          "Tool definitions",
          "Files",
          "Conversation",
          "Tool outputs",
          "Summary",
        ]);
        await meter.getByText(/Estimated by Parley|Counted by the model/).waitFor();
        // Read when the chat opened or its turn ended: what sending the next request would cost.
        await meter.getByText(/The next request costs about \$[\d.]+ before its answer\./).waitFor();

        const fill = await meter.locator(".fill").evaluate((el) => {
          const { backgroundColor, width } = getComputedStyle(el);
          return { backgroundColor, width: Number.parseFloat(width) };
        });
        assert.ok(fill.width > 0, "the bar shows a fill");
        assert.notEqual(fill.backgroundColor, "rgba(0, 0, 0, 0)", "the fill has a colour");
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 320, `nothing sticks out sideways at 320 px (page is ${width} px wide)`);
        await screenshot(page, `context-meter-320-${name}`);

        // The answer's usage line opens onto a table of the turn's upstream requests.
        const requestsToggle = page
          .locator(".message.assistant", { hasText: "You said:" })
          .getByRole("button", { name: /Requests of this turn/ });
        assert.equal(await requestsToggle.getAttribute("aria-expanded"), "false");
        await requestsToggle.focus();
        await page.keyboard.press("Enter");
        assert.equal(await requestsToggle.getAttribute("aria-expanded"), "true");
        const requests = page.getByRole("table", { name: "Requests of this turn" });
        await requests.waitFor();
        // Short headers so the table fits 320 px; screen readers hear the whole words.
        assert.deepEqual(
          await requests
            .getByRole("columnheader")
            .evaluateAll((cells) =>
              cells.map((cell) => (cell.querySelector(".sr-only")?.textContent ?? cell.textContent)!.trim()),
            ),
          ["Step", "Cause", "Prompt", "Cached", "Output", "Cost"],
        );
        const firstRow = await requests.locator("tbody tr").first().locator("td").allTextContents();
        assert.equal(firstRow[1], "Turn", `the first request was caused by the turn: ${firstRow.join(" | ")}`);
        assert.match(firstRow[3]!, /^(\d+%|—)$/);
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(wide <= 320, `the requests table scrolls inside its box at 320 px (page is ${wide} px wide)`);
        await screenshot(page, `context-meter-320-${name}-requests`);

        // An Anthropic model caches behind Parley's marks: its second turn reads the first one's prefix
        // (tools, system, the exchange so far) from the cache, and the answer's usage line says how much.
        await chooseModel(page, "anthropic/fake-claude");
        await say(page, "First question for the cache");
        await say(page, "Second question for the cache");
        await page
          .locator(".message.assistant .usage", { hasText: /\d+% cached/ })
          .last()
          .waitFor();

        await screenshot(page, `context-meter-320-${name}-cached`);
        const violations = await seriousViolations(page);
        assert.deepEqual(violations, [], `${name}: ${JSON.stringify(violations, null, 2)}`);
      } finally {
        await context.close();
      }
    }
  });
});
