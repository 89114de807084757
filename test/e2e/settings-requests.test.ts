// How much network one settings change costs in the web UI: the change itself and, at most, one
// re-read, not a reload of every resource the open views show (issue #12).
import assert from "node:assert/strict";
import type { Page, Request } from "playwright-core";
import { startBrowserStack, type BrowserStack } from "../helpers/browser-stack";
import { until } from "../helpers/poll";
import type { Stack } from "../helpers/stack";

/** Rounds of the settling check below before the page counts as never settling. */
const MAX_ROUNDS = 10;

/** How far the page's (fake) clock is run before each settling check: a deferred request is asked for by then. */
const RUN_CLOCK_MS = 10_000;

/**
 * API requests the page makes while `action` runs and as a consequence of it, told apart without a
 * quiet window on the clock. Each round: once none is in flight, the page's clock is run forward
 * (its timers fire, so a debounced request is made now), then the test changes the chat list
 * through the API, and the page answers that change's event with one known request (the chat list).
 * The server sends its events in order on one stream, so once that request is seen every earlier
 * event has been handled; a round in which nothing else was asked for means the page has settled.
 * The chat list requests of those rounds are not counted.
 */
async function apiRequestsDuring(page: Page, stack: Stack, action: () => Promise<void>): Promise<string[]> {
  const projectId = ((await (await stack.api("GET", "/api/projects")).json()) as { id: string }[])[0]!.id;
  const chatList = `/api/projects/${projectId}/chats`;
  const seen: { request: Request; label: string }[] = [];
  const inFlight = new Set<Request>();
  const markers = new Set<Request>();
  const onRequest = (request: Request) => {
    const url = new URL(request.url());
    // The app-wide event stream is opened once per page, not per change.
    if (!url.pathname.startsWith("/api/") || url.pathname === "/api/events") return;
    seen.push({ request, label: `${request.method()} ${url.pathname}${url.search}` });
    inFlight.add(request);
  };
  const onDone = (request: Request) => inFlight.delete(request);
  page.on("request", onRequest);
  page.on("requestfinished", onDone);
  page.on("requestfailed", onDone);
  try {
    await action();
    for (let round = 1; ; round++) {
      await until(
        () => [...inFlight].map((r) => r.url()),
        (urls) => urls.length === 0,
        "the page's requests to finish",
        20_000,
      );
      const from = seen.length;
      await page.clock.runFor(RUN_CLOCK_MS);
      const created = await stack.api("POST", chatList, {});
      assert.equal(created.status, 201);
      const marker = await until(
        () => seen.slice(from).find(({ request, label }) => !markers.has(request) && label === `GET ${chatList}`),
        (found) => found !== undefined,
        "the page to read the chat list after the test's change to it (is the event stream up?)",
        20_000,
      );
      markers.add(marker!.request);
      await until(
        () => inFlight.size,
        (n) => n === 0,
        "the page's requests to finish",
        20_000,
      );
      if (seen.length === from + 1) break;
      if (round === MAX_ROUNDS)
        assert.fail(`the page never settled: ${seen.slice(from).map((s) => s.label)} in the last round`);
    }
  } finally {
    page.off("request", onRequest);
    page.off("requestfinished", onDone);
    page.off("requestfailed", onDone);
  }
  return seen.filter(({ request }) => !markers.has(request)).map(({ label }) => label);
}

describe("web UI: requests per settings change", function () {
  this.timeout(120_000);
  let ui: BrowserStack | undefined;
  let stack: Stack;
  let page: Page;

  before(async function () {
    ui = await startBrowserStack(this);
    ({ stack, page } = ui);
    // The page's timers on a clock the test runs forward (see apiRequestsDuring); it flows as usual meanwhile.
    await page.clock.install();
    await page.goto(`${stack.url}/?token=${stack.token}`);
    await page.getByRole("heading", { name: "Chats" }).waitFor();
  });

  after(() => ui?.stop());

  it("toggles a chat default with at most two requests", async () => {
    await page.goto(`${stack.url}/#/settings/defaults`);
    const toggle = page.locator("vscode-checkbox#auto-retry");
    await toggle.waitFor();
    // Let the page finish loading what it shows before counting.
    await apiRequestsDuring(page, stack, async () => {});
    const requests = await apiRequestsDuring(page, stack, async () => {
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
