// How much network one settings change costs in the web UI: the change itself and, at most, one
// re-read, not a reload of every resource the open views show (issue #12).
import assert from "node:assert/strict";
import type { Page, Request } from "playwright-core";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import type { Stack } from "../helpers/stack";

/** API requests the page makes while `action` runs and until the network has been quiet for `quietMs`. */
async function apiRequestsDuring(page: Page, action: () => Promise<void>, quietMs = 1500): Promise<string[]> {
  const seen: string[] = [];
  let last = Date.now();
  const listener = (request: Request) => {
    const url = new URL(request.url());
    // The app-wide event stream is opened once per page, not per change.
    if (!url.pathname.startsWith("/api/") || url.pathname === "/api/events") return;
    seen.push(`${request.method()} ${url.pathname}${url.search}`);
    last = Date.now();
  };
  page.on("request", listener);
  try {
    await action();
    last = Date.now();
    while (Date.now() - last < quietMs) await new Promise((resolve) => setTimeout(resolve, 100));
  } finally {
    page.off("request", listener);
  }
  return seen;
}

describe("web UI: requests per settings change", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  it("toggles a chat default with at most two requests", async () => {
    await page.goto(`${stack.url}/#/settings/defaults`);
    const toggle = page.locator("vscode-checkbox#auto-retry");
    await toggle.waitFor();
    // Let the page finish loading what it shows before counting.
    await apiRequestsDuring(page, async () => {});
    const requests = await apiRequestsDuring(page, async () => {
      await toggle.click();
      await page.locator(".row", { has: toggle }).getByRole("status").filter({ hasText: "Saved" }).waitFor();
    });
    console.log(`      requests for one toggle: ${requests.length} (${requests.join(", ")})`);
    assert.ok(
      requests.length >= 1 && requests.length <= 2,
      `one toggle made ${requests.length} requests: ${requests.join(", ")}`,
    );
    assert.ok(requests.includes("PATCH /api/settings/app"));
  });
});
