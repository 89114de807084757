// `npm run bench -- popup`: the composer's @ popup in a real Chromium against `parley serve`, over
// generated project trees of 10k, 100k and 1M files written to disk. Per tree, two JSON lines:
// - popup.keystroke: each keystroke of ten queries typed one character at a time, from the input
//   event to the popup rendered with that keystroke's rows (the DOM updated and the next frame),
//   each keystroke waiting for the one before; p95 target 50 ms up to 100k files, 120 ms at 1M;
// - popup.burst: the same queries typed at 25 ms a key (faster than the answers come at 1M), timed
//   from the last key to its rows on screen, with the number of superseded keystrokes the client
//   cancelled (aborted requests) and that the server skipped or answered `[]` as superseded.
// - popup.tag_refresh (10k tree): a tag added in .app.json while the popup is open on a query
//   only that tag matches, from the write to the tagged row on screen with nothing typed: the
//   popup's 5 s refresh picks it up; target within one refresh and a second.
// Keystrokes are timed inside the page (performance.now), so the driver's round trips do not count.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "../test/helpers/browser";
import { startCli } from "../test/helpers/cli-process";
import { generatePaths } from "./path-generator";
import { median, percentile, report, round } from "./stats";

const QUERIES = [
  "button",
  "userController",
  "src/util",
  "readme",
  "auth_token",
  "idx",
  "orderlist",
  "zzqx",
  "packages/store",
  "hook",
];
const SIZES: { files: number; targetP95Ms: number }[] = [
  { files: 10_000, targetP95Ms: 50 },
  { files: 100_000, targetP95Ms: 50 },
  { files: 1_000_000, targetP95Ms: 120 },
];

/** Empty files in the generated folders (names decide they are text), a .git and a .gitignore. */
function writeTree(root: string, paths: string[]): void {
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });
  fs.writeFileSync(path.join(root, ".gitignore"), "*.log\ndist/\n");
  for (const dir of new Set(paths.map((p) => path.dirname(p)))) fs.mkdirSync(path.join(root, dir), { recursive: true });
  for (const p of paths) fs.closeSync(fs.openSync(path.join(root, p), "w"));
}

/**
 * In the page: `__keystroke(text)` types `text` into the composer as one input event and resolves
 * with the time to that keystroke's rows in the DOM (the listbox no longer aria-busy) and on screen
 * (the next frame); `__burst` types a query key by key first; `__aborted` counts the mention
 * searches the client cancelled. A string, so the bundler's helpers never leak into the page.
 */
const PROBE = `(() => {
  let aborted = 0;
  const fetch0 = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const pending = fetch0(input, init);
    if (String(input).includes("/api/mentions/search")) pending.catch((e) => { if (e && e.name === "AbortError") aborted++; });
    return pending;
  };
  window.__aborted = () => aborted;
  const input = (text) => {
    const box = document.querySelector('textarea[aria-label="Message"]');
    box.value = text;
    box.setSelectionRange(text.length, text.length);
    box.dispatchEvent(new Event("input", { bubbles: true }));
  };
  const rendered = (t0, text) => new Promise((resolve) => {
    const done = () => {
      const domMs = performance.now() - t0;
      requestAnimationFrame(() => resolve({ domMs, frameMs: performance.now() - t0 }));
    };
    // The rows answer this very keystroke: its query, and no newer search on its way.
    const settled = () => {
      const list = document.querySelector('[role="listbox"][aria-label="Mentions"]');
      return list?.getAttribute("aria-busy") === "false" && list.getAttribute("data-query") === text.slice(1);
    };
    if (settled()) return done();
    const observer = new MutationObserver(() => {
      if (!settled()) return;
      observer.disconnect();
      done();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-busy", "data-query"] });
  });
  window.__keystroke = (text) => {
    const t0 = performance.now();
    input(text);
    return rendered(t0, text);
  };
  window.__burst = async (text, gapMs) => {
    for (let n = 1; n < text.length; n++) {
      input(text.slice(0, n));
      await new Promise((r) => setTimeout(r, gapMs));
    }
    const t0 = performance.now();
    input(text);
    return rendered(t0, text);
  };
  window.__clear = () => input("");
})()`;

type Timing = { domMs: number; frameMs: number };

/** The popup's refresh period (REFRESH_MS in webview/src/lib/state/mentions.svelte.ts). */
const REFRESH_MS = 5_000;
const TAG_REFRESH_SAMPLES = 6;

/**
 * From writing a tag into .app.json to the popup, left open on a query only that tag matches,
 * showing the tagged file (rows in the DOM); against typing that query once the tag is there.
 */
async function tagRefresh(page: Page, project: string, paths: string[]): Promise<void> {
  const refreshed: number[] = [];
  const typed: number[] = [];
  const fileTags: Record<string, string[]> = {};
  const appJson = path.join(project, ".app.json");
  const rowShown = () =>
    page.waitForFunction(
      () => document.querySelector('[role="listbox"][aria-label="Mentions"] .option:not(.empty)') !== null,
      undefined,
      { timeout: REFRESH_MS * 4, polling: "raf" },
    );
  for (let i = 0; i < TAG_REFRESH_SAMPLES; i++) {
    const tag = `quokka${i}x`;
    await clear(page);
    await keystroke(page, `@${tag}`);
    if ((await page.locator('[role="listbox"][aria-label="Mentions"] .option:not(.empty)').count()) > 0)
      throw new Error(`@${tag} matches before it is a tag`);
    // Files in the generated tree's folders spread over it (the first few share one folder).
    fileTags[paths[i * 997]!] = [tag];
    const started = performance.now();
    fs.writeFileSync(appJson, JSON.stringify({ fileTags }));
    await rowShown();
    refreshed.push(performance.now() - started);
    await clear(page);
    typed.push((await keystroke(page, `@${tag}`)).frameMs);
  }
  const worst = Math.max(...refreshed);
  report({
    bench: "popup.tag_refresh",
    files: paths.length,
    samples: TAG_REFRESH_SAMPLES,
    medianMs: round(median(refreshed)),
    maxMs: round(worst),
    baselineTypedMedianMs: round(median(typed), 1),
    refreshMs: REFRESH_MS,
    targetMaxMs: REFRESH_MS + 1_000,
    meetsTarget: worst < REFRESH_MS + 1_000,
  });
}

const keystroke = (page: Page, text: string) =>
  page.evaluate(`window.__keystroke(${JSON.stringify(text)})`) as Promise<Timing>;
const burst = (page: Page, text: string) =>
  page.evaluate(`window.__burst(${JSON.stringify(text)}, 25)`) as Promise<Timing>;
const clear = (page: Page) => page.evaluate("window.__clear()");
const abortedSoFar = (page: Page) => page.evaluate("window.__aborted()") as Promise<number>;

async function measure(files: number, targetP95Ms: number): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-popup-bench-"));
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "parley-popup-home-"));
  const project = path.join(root, "project");
  const browser = await launchChromium();
  let cli: Awaited<ReturnType<typeof startCli>> | undefined;
  try {
    let t = performance.now();
    const paths = generatePaths(files, 5);
    writeTree(project, paths);
    const writeMs = performance.now() - t;
    cli = await startCli(["serve", "--port", "0", "--home", home, "--project", project]);
    const { url, token } = cli.ready;
    const api = (route: string, method = "GET", body?: unknown) =>
      fetch(`${url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const projectId = ((await (await api("/api/projects")).json()) as { id: string }[])[0]!.id;
    const chat = (await (await api(`/api/projects/${projectId}/chats`, "POST", { modelId: "fake/echo" })).json()) as {
      id: string;
    };
    // The first search waits for the first scan and index: done before timing, as when a project has been open a while.
    t = performance.now();
    await (await api(`/api/mentions/search?projectDir=${encodeURIComponent(project)}&q=a`)).arrayBuffer();
    const firstSearchMs = performance.now() - t;

    const page = await (await browser.newContext({ viewport: { width: 900, height: 900 } })).newPage();
    await page.goto(`${url}/?token=${token}#/chat/${chat.id}`);
    await page.getByRole("combobox", { name: "Message" }).waitFor();
    await page.waitForFunction(
      () => !document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.disabled,
    );
    await page.evaluate(PROBE);

    // A warm-up pass (JIT, caches), then the measured one.
    const typed = QUERIES.flatMap((q) => Array.from({ length: q.length + 1 }, (_, n) => `@${q.slice(0, n)}`));
    const times: number[] = [];
    const dom: number[] = [];
    for (const pass of [0, 1]) {
      for (const text of typed) {
        if (text === "@") await clear(page);
        const { domMs, frameMs } = await keystroke(page, text);
        if (pass === 1) (times.push(frameMs), dom.push(domMs));
      }
    }
    report({
      bench: "popup.keystroke",
      files,
      keystrokes: times.length,
      medianMs: round(median(times), 1),
      p95Ms: round(percentile(times, 95), 1),
      maxMs: round(Math.max(...times), 1),
      domP95Ms: round(percentile(dom, 95), 1),
      targetP95Ms,
      meetsTarget: percentile(times, 95) < targetP95Ms,
      treeWriteS: round(writeMs / 1000, 1),
      firstSearchMs: round(firstSearchMs),
      note: "real Chromium (headless) and `parley serve` on a shared 2-core machine; input event to the rows in the DOM plus one frame",
    });

    const abortedBefore = await abortedSoFar(page);
    const lastKey: number[] = [];
    for (const q of QUERIES) {
      await clear(page);
      lastKey.push((await burst(page, `@${q}`)).frameMs);
    }
    const aborted = (await abortedSoFar(page)) - abortedBefore;
    const keys = QUERIES.reduce((n, q) => n + q.length + 1, 0);
    report({
      bench: "popup.burst",
      files,
      queries: QUERIES.length,
      keystrokes: keys,
      keyGapMs: 25,
      lastKeyMedianMs: round(median(lastKey), 1),
      lastKeyP95Ms: round(percentile(lastKey, 95), 1),
      cancelledKeystrokes: aborted,
      targetP95Ms,
      meetsTarget: percentile(lastKey, 95) < targetP95Ms,
    });
    if (files === SIZES[0]!.files) await tagRefresh(page, project, paths);
    await page.close();
  } finally {
    await browser.close();
    if (cli) {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  }
}

export async function runPopupBench(): Promise<void> {
  if (!chromiumAvailable()) {
    report({
      bench: "popup.keystroke",
      skipped: "Chromium is not installed (apt-get install chromium)",
      meetsTarget: null,
    });
    return;
  }
  const max = Number(process.env.PARLEY_BENCH_POPUP_MAX_FILES ?? Infinity);
  for (const { files, targetP95Ms } of SIZES) if (files <= max) await measure(files, targetP95Ms);
}
