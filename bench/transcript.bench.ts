// `npm run bench -- transcript`: a long chat in a real Chromium against `parley serve` (issue 36's
// targets). The chats are written straight into the server's store: one of BENCH_TRANSCRIPT_MESSAGES
// messages (default 10,000: mixed markdown and tool cards), a two-message chat as the baseline measured
// in the same browser, and 10,000 chats in a second project. Lines:
// - transcript.api_page / transcript.chat_list_page: the paged reads over loopback, against /api/health;
// - transcript.open: from navigation to the last message painted, the longest task meanwhile, and
//   the renderer's memory, against the two-message chat;
// - transcript.scroll: scrolling the long chat from its end to its first message, frame by frame;
// - transcript.stream: a 100 KB markdown answer (`fake/long-markdown`) streamed into the long chat:
//   tasks, frame rate, and time per delta against the same stream read by a plain client.
// Every step has a time limit: a transcript that is not virtualized takes minutes at 10,000 messages,
// and then the line says what was measured before it gave up (pass false).
import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, CDPSession, Page } from "playwright-core";
import { longMarkdownMarks, LONG_MARKDOWN_DEFAULTS, LONG_MARKDOWN_MODEL } from "../test/fake-gateway/long-markdown";
import { chromiumAvailable, launchChromium } from "../test/helpers/browser";
import { readEvents } from "../test/helpers/sse";
import { startStack, type Stack } from "../test/helpers/stack";
import { median, percentile, report, round } from "./stats";
import { TRANSCRIPT_PROBE, type DomCounts, type Painted, type ScrollRun, type StreamArrival } from "./transcript-probe";
import { addChats, fillChat, lastMessageMark } from "../test/helpers/transcript-store";

const MESSAGES = Number(process.env.BENCH_TRANSCRIPT_MESSAGES ?? 10_000);
const LIST_CHATS = 10_000;
const PAGE = 50;
const API_SAMPLES = 50;
const OPEN_TIMEOUT_MS = 120_000;
const SCROLL_MAX_MS = 60_000;
const STREAM_TIMEOUT_MS = 120_000;
/** After the last message is painted, how long the open keeps counting tasks (work the view does next). */
const SETTLE_MS = 1_000;
const VIEWPORT = { width: 900, height: 900 };
const FIRST_MESSAGE_MARK = "Question 0: how does part 0 of the store work";
/** Frames at 30 fps (two vsyncs of 16.7 ms, give or take the timer's jitter) are on time. */
const SLOW_FRAME_MS = 34;
const TARGETS = {
  openRatio: 2,
  openTaskMs: 100,
  memoryRatio: 1.5,
  slowFrameShare: 0.05,
  streamTaskMs: 50,
  streamFps: 30,
  perDeltaRatio: 1.5,
  pageMs: 10,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The promise's value, or undefined once `ms` have passed (a page stuck in a task answers nothing). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
  try {
    const settled = promise.catch((error: unknown) => {
      process.stderr.write(`transcript: ${String((error as Error)?.message ?? error).split("\n")[0]}\n`);
      return undefined;
    });
    return await Promise.race([settled, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
const ratio = (value: number | undefined, baseline: number | undefined) =>
  value === undefined || !baseline ? null : round(value / baseline, 2);

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

// ---------------------------------------------------------------------------------------------
// The paged reads, from this process over loopback

async function timeGet(url: string, token: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const bytes = (await response.arrayBuffer()).byteLength;
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return { ms, bytes };
}

async function apiPages(stack: Stack, chatId: string, listProjectId: string): Promise<void> {
  const routes = {
    health: `${stack.url}/api/health`,
    chat: `${stack.url}/api/chats/${chatId}?limit=${PAGE}`,
    list: `${stack.url}/api/projects/${listProjectId}/chats?limit=${PAGE}`,
  };
  const times: Record<keyof typeof routes, number[]> = { health: [], chat: [], list: [] };
  const bytes: Record<keyof typeof routes, number> = { health: 0, chat: 0, list: 0 };
  // Ten warm-up rounds, then the three routes in turn.
  for (let i = 0; i < API_SAMPLES + 10; i++) {
    for (const key of Object.keys(routes) as (keyof typeof routes)[]) {
      const { ms, bytes: size } = await timeGet(routes[key], stack.token);
      if (i >= 10) times[key].push(ms);
      bytes[key] = size;
    }
  }
  // What a client pays without paging: once each, for scale.
  const wholeChat = await timeGet(`${stack.url}/api/chats/${chatId}`, stack.token);
  const wholeList = await timeGet(`${stack.url}/api/projects/${listProjectId}/chats`, stack.token);
  const health = median(times.health);
  for (const [bench, key, whole, size] of [
    ["transcript.api_page", "chat", wholeChat, { messages: MESSAGES }],
    ["transcript.chat_list_page", "list", wholeList, { chats: LIST_CHATS }],
  ] as const) {
    const value = median(times[key]);
    report({
      bench,
      ...size,
      limit: PAGE,
      samples: API_SAMPLES,
      medianMs: round(value),
      p95Ms: round(percentile(times[key], 95)),
      pageKb: round(bytes[key] / 1024, 1),
      baselineHealthMedianMs: round(health),
      unpagedMs: round(whole.ms, 1),
      unpagedKb: round(whole.bytes / 1024, 1),
      targetMedianMs: TARGETS.pageMs,
      pass: value < TARGETS.pageMs,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The browser

type Opened = {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** From navigation start to the frame after the one that had the last message. */
  paintedMs?: number;
  longestTaskMs?: number;
  tasksOver50Ms?: number;
  heapMb?: number;
  rendererRssMb?: number;
  nodes?: number;
  counts?: DomCounts;
  /** Why a value is missing. */
  gaveUp?: string;
};

const longest = (tasks: [number, number][]) => (tasks.length ? Math.max(...tasks.map(([, d]) => d)) : 0);

/** A page in a context of its own (its own renderer), signed in, with the probe, on a blank document. */
async function newPage(
  browser: Browser,
  stack: Stack,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession }> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(TRANSCRIPT_PROBE);
  const page = await context.newPage();
  // The token link trades the token for the session cookie (set once the page has loaded).
  await page.goto(`${stack.url}/?token=${stack.token}`);
  await page.goto("about:blank");
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  return { context, page, cdp };
}

/** RSS of the largest renderer process: the page's (it holds the app; spare renderers hold nothing). */
async function rendererRssMb(browser: Browser): Promise<number | undefined> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await session.send("SystemInfo.getProcessInfo")) as {
      processInfo: { type: string; id: number }[];
    };
    let largest = 0;
    for (const p of processInfo.filter((p) => p.type === "renderer")) {
      const status = fs.readFileSync(`/proc/${p.id}/status`, "utf8");
      largest = Math.max(largest, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    }
    return largest ? largest / 1024 : undefined;
  } catch {
    return undefined;
  } finally {
    await session.detach().catch(() => undefined);
  }
}

/**
 * Opens a chat in a fresh page and measures it, until `lastText` (its last message's) is painted; the
 * page stays open (the caller closes it).
 */
async function openChat(browser: Browser, stack: Stack, chatId: string, lastText: string): Promise<Opened> {
  const opened: Opened = await newPage(browser, stack);
  const { page, cdp } = opened;
  const started = performance.now();
  await page.goto(`${stack.url}/#/chat/${chatId}`, { waitUntil: "commit" });
  const painted = await within(
    page.evaluate(`window.__bench.watch(${JSON.stringify(lastText)}, ${OPEN_TIMEOUT_MS})`) as Promise<Painted | null>,
    OPEN_TIMEOUT_MS + 10_000,
  );
  if (!painted) {
    opened.gaveUp =
      performance.now() - started >= OPEN_TIMEOUT_MS
        ? `the last message was not painted within ${OPEN_TIMEOUT_MS / 1000} s`
        : "the page failed before the last message was painted (stderr says why)";
    // A page still stuck in its task answers nothing: what it did so far, if it can say.
    const tasks = await within(
      page.evaluate(`window.__bench.tasks(0, Infinity)`) as Promise<[number, number][]>,
      5_000,
    );
    if (tasks) ((opened.longestTaskMs = longest(tasks)), (opened.tasksOver50Ms = tasks.length));
    return opened;
  }
  opened.paintedMs = painted.paintedAt;
  await sleep(SETTLE_MS);
  const tasks = (await page.evaluate(`window.__bench.tasks(0, ${painted.paintedAt + SETTLE_MS})`)) as [
    number,
    number,
  ][];
  opened.longestTaskMs = longest(tasks);
  opened.tasksOver50Ms = tasks.length;
  opened.counts = (await page.evaluate("window.__bench.counts()")) as DomCounts;
  await cdp.send("HeapProfiler.collectGarbage");
  const { metrics } = (await cdp.send("Performance.getMetrics")) as { metrics: { name: string; value: number }[] };
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value;
  opened.heapMb = (metric("JSHeapUsedSize") ?? NaN) / 1024 / 1024;
  opened.nodes = metric("Nodes");
  opened.rendererRssMb = await rendererRssMb(browser);
  return opened;
}

const medianOf = (runs: Opened[], pick: (o: Opened) => number | undefined) => {
  const values = runs.map(pick).filter((v): v is number => v !== undefined && !Number.isNaN(v));
  return values.length ? median(values) : undefined;
};

async function scrollRun(page: Page, minFrames: number): Promise<ScrollRun | undefined> {
  const stepPx = VIEWPORT.height * 2;
  return within(
    page.evaluate(
      `window.__bench.scroll(${stepPx}, ${JSON.stringify(FIRST_MESSAGE_MARK)}, ${SCROLL_MAX_MS}, ${minFrames})`,
    ) as Promise<ScrollRun>,
    SCROLL_MAX_MS + 30_000,
  );
}

const slowShare = (frames: number[]) =>
  frames.length ? frames.filter((f) => f > SLOW_FRAME_MS).length / frames.length : NaN;

async function openAndScroll(browser: Browser, stack: Stack, chats: Chats): Promise<void> {
  // A warm-up open (the server's and the browser's caches), then the baseline three times.
  await (await openChat(browser, stack, chats.baseline.id, lastMessageMark(chats.baseline.tag))).context.close();
  const baselines: Opened[] = [];
  let idle: ScrollRun | undefined;
  for (let i = 0; i < 3; i++) {
    const run = await openChat(browser, stack, chats.baseline.id, lastMessageMark(chats.baseline.tag));
    baselines.push(run);
    // The scroll's baseline: frames of the same loop on the two-message chat, which has nothing to scroll.
    if (i === 2) idle = await scrollRun(run.page, 120);
    await run.context.close();
  }
  // The long chat: once when it is slow, else three times (the last one is scrolled).
  const longs: Opened[] = [];
  let scroll: ScrollRun | undefined;
  for (let i = 0; i < 3; i++) {
    const run = await openChat(browser, stack, chats.long.id, lastMessageMark(chats.long.tag));
    longs.push(run);
    const last = i === 2 || run.paintedMs === undefined || run.paintedMs > 20_000;
    if (last && run.paintedMs !== undefined) scroll = await scrollRun(run.page, 0);
    await within(run.context.close(), 30_000);
    if (last) break;
  }

  const open = medianOf(longs, (o) => o.paintedMs);
  const baseOpen = medianOf(baselines, (o) => o.paintedMs);
  const task = Math.max(...longs.map((o) => o.longestTaskMs ?? NaN));
  const heap = medianOf(longs, (o) => o.heapMb);
  const baseHeap = medianOf(baselines, (o) => o.heapMb);
  const rss = medianOf(longs, (o) => o.rendererRssMb);
  const baseRss = medianOf(baselines, (o) => o.rendererRssMb);
  const lastLong = longs.at(-1)!;
  const gaveUp = longs.find((o) => o.gaveUp)?.gaveUp;
  // Renderer memory is the page's process (its RSS: the JS heap, the DOM, layout and paint); the JS
  // heap alone, when the process cannot be read.
  const memoryOk =
    rss !== undefined && baseRss !== undefined
      ? rss <= TARGETS.memoryRatio * baseRss
      : heap !== undefined && baseHeap !== undefined && heap <= TARGETS.memoryRatio * baseHeap;
  report({
    bench: "transcript.open",
    messages: MESSAGES,
    samples: longs.length,
    paintedMs: open === undefined ? null : round(open, 1),
    baselinePaintedMs: baseOpen === undefined ? null : round(baseOpen, 1),
    paintedRatio: ratio(open, baseOpen),
    longestTaskMs: Number.isNaN(task) ? null : round(task, 1),
    tasksOver50Ms: lastLong.tasksOver50Ms ?? null,
    baselineLongestTaskMs: round(Math.max(...baselines.map((o) => o.longestTaskMs ?? 0)), 1),
    heapMb: heap === undefined ? null : round(heap, 1),
    baselineHeapMb: baseHeap === undefined ? null : round(baseHeap, 1),
    heapRatio: ratio(heap, baseHeap),
    rendererRssMb: rss === undefined ? null : round(rss, 1),
    baselineRendererRssMb: baseRss === undefined ? null : round(baseRss, 1),
    rssRatio: ratio(rss, baseRss),
    domNodes: lastLong.nodes ?? null,
    baselineDomNodes: baselines.at(-1)!.nodes ?? null,
    transcriptElements: lastLong.counts?.transcriptElements ?? null,
    transcriptItems: lastLong.counts?.transcriptItems ?? null,
    baselineTranscriptElements: baselines.at(-1)!.counts?.transcriptElements ?? null,
    targetPaintedRatio: TARGETS.openRatio,
    targetLongestTaskMs: TARGETS.openTaskMs,
    targetMemoryRatio: TARGETS.memoryRatio,
    pass:
      open !== undefined &&
      baseOpen !== undefined &&
      open <= TARGETS.openRatio * baseOpen &&
      task < TARGETS.openTaskMs &&
      memoryOk,
    ...(gaveUp ? { gaveUp } : {}),
  });

  const frames = scroll?.frameMs ?? [];
  const share = slowShare(frames);
  report({
    bench: "transcript.scroll",
    messages: MESSAGES,
    frames: frames.length,
    slowFrames: frames.filter((f) => f > SLOW_FRAME_MS).length,
    slowFrameShare: Number.isNaN(share) ? null : round(share, 3),
    medianFrameMs: frames.length ? round(median(frames), 1) : null,
    p95FrameMs: frames.length ? round(percentile(frames, 95), 1) : null,
    maxFrameMs: frames.length ? round(Math.max(...frames), 1) : null,
    scrolledPx: scroll?.scrolledPx ?? null,
    stepPx: VIEWPORT.height * 2,
    reachedFirstMessage: scroll?.reachedTop ?? false,
    seconds: scroll ? round(scroll.seconds, 1) : null,
    baselineSlowFrameShare: idle ? round(slowShare(idle.frameMs), 3) : null,
    baselineFrames: idle?.frameMs.length ?? null,
    slowFrameMs: SLOW_FRAME_MS,
    targetSlowFrameShare: TARGETS.slowFrameShare,
    pass: Boolean(scroll?.reachedTop) && share < TARGETS.slowFrameShare,
    ...(scroll
      ? scroll.reachedTop
        ? {}
        : { gaveUp: `the first message was not reached within ${SCROLL_MAX_MS / 1000} s` }
      : { gaveUp: "the chat did not open, or the page did not answer" }),
  });
}

// ---------------------------------------------------------------------------------------------
// Streaming

const streamPrompt = (tag: string) =>
  `markdown: ${LONG_MARKDOWN_DEFAULTS.kb} ${LONG_MARKDOWN_DEFAULTS.pieces} ${LONG_MARKDOWN_DEFAULTS.delayMs} ${tag}`;

/** The same stream read by a plain client (this process): time per delta from the first to the last. */
async function plainStream(
  stack: Stack,
  chatId: string,
  tag: string,
): Promise<{ perDeltaMs: number; deltas: number; firstDeltaMs: number } | { gaveUp: string }> {
  const started = performance.now();
  const response = await fetch(`${stack.url}/api/chats/${chatId}/messages/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${stack.token}`, "content-type": "application/json" },
    body: JSON.stringify({ content: streamPrompt(tag) }),
    signal: AbortSignal.timeout(STREAM_TIMEOUT_MS),
  });
  if (!response.ok)
    return { gaveUp: `the plain client's turn was refused: ${response.status} ${await response.text()}` };
  const at: number[] = [];
  const events = await readEvents(response, (e) => {
    if (e.event === "text.delta") at.push(performance.now());
  });
  const failed = events.find((e) => e.event === "error");
  if (failed) return { gaveUp: `the plain client's stream failed: ${JSON.stringify(failed.data)}` };
  if (at.length < 2)
    return {
      gaveUp: `the plain client's stream ended with ${at.length} deltas (${STREAM_TIMEOUT_MS / 1000} s at most)`,
    };
  return { perDeltaMs: (at.at(-1)! - at[0]!) / (at.length - 1), deltas: at.length, firstDeltaMs: at[0]! - started };
}

type UiStream = {
  perDeltaMs?: number;
  fps?: number;
  longestTaskMs?: number;
  settleLongestTaskMs?: number;
  slowFrameShare?: number;
  firstPaintedMs?: number;
  /** From a delta reaching the page to its text on screen: the first one, the last one. */
  firstLineLagMs?: number;
  lastLineLagMs?: number;
  gaveUp?: string;
};

/** Sends the prompt from the composer of an opened chat and watches the answer's first and last lines. */
async function uiStream(
  browser: Browser,
  stack: Stack,
  chats: Chats,
  which: "long" | "baseline",
  deltas: number,
  lastText: string,
): Promise<UiStream> {
  const opened = await openChat(browser, stack, chats[which].id, lastText);
  const { page } = opened;
  try {
    if (opened.paintedMs === undefined) return { gaveUp: "the chat did not open" };
    const tag = `ui-${which}`;
    const marks = longMarkdownMarks(streamPrompt(tag));
    const box = page.getByRole("combobox", { name: "Message" });
    await box.waitFor({ timeout: 30_000 });
    await page.waitForFunction(
      () => !document.querySelector<HTMLTextAreaElement>('textarea[aria-label="Message"]')?.disabled,
      undefined,
      { timeout: 30_000 },
    );
    await box.fill(streamPrompt(tag));
    const sentAt = (await page.evaluate("window.__bench.now()")) as number;
    const watching = Promise.all([
      page.evaluate(`window.__bench.watch(${JSON.stringify(marks.first)}, ${STREAM_TIMEOUT_MS})`),
      page.evaluate(`window.__bench.watch(${JSON.stringify(marks.last)}, ${STREAM_TIMEOUT_MS})`),
    ]) as Promise<[Painted | null, Painted | null]>;
    await box.press("Enter");
    const started = performance.now();
    const watched = await within(watching, STREAM_TIMEOUT_MS + 10_000);
    const [first, last] = watched ?? [null, null];
    if (!first || !last) {
      const line = first ? "last" : "first";
      return performance.now() - started >= STREAM_TIMEOUT_MS
        ? { gaveUp: `the answer's ${line} line was not painted within ${STREAM_TIMEOUT_MS / 1000} s` }
        : { gaveUp: `the page failed before the answer's ${line} line was painted (stderr says why)` };
    }
    await sleep(SETTLE_MS);
    const during = (await page.evaluate(`window.__bench.tasks(${sentAt}, ${last.paintedAt})`)) as [number, number][];
    const after = (await page.evaluate(`window.__bench.tasks(${last.paintedAt}, ${last.paintedAt + SETTLE_MS})`)) as [
      number,
      number,
    ][];
    const arrived = (await page.evaluate("window.__bench.lastStream()")) as StreamArrival | null;
    if (arrived?.firstDeltaAt === undefined || arrived.lastDeltaAt === undefined)
      return { gaveUp: "the page's stream reader saw no text delta (did the app stop reading the stream with fetch?)" };
    // While streaming: from the first delta reaching the page to the last one on screen.
    const frames = (await page.evaluate(
      `window.__bench.frameDeltas(${arrived.firstDeltaAt}, ${last.paintedAt})`,
    )) as number[];
    const span = last.paintedAt - arrived.firstDeltaAt;
    return {
      perDeltaMs: span / (deltas - 1),
      fps: (frames.length / span) * 1000,
      longestTaskMs: longest(during),
      settleLongestTaskMs: longest(after),
      slowFrameShare: slowShare(frames),
      firstPaintedMs: first.paintedAt - sentAt,
      firstLineLagMs: first.paintedAt - arrived.firstDeltaAt,
      lastLineLagMs: last.paintedAt - arrived.lastDeltaAt,
    };
  } finally {
    await within(opened.context.close(), 30_000);
  }
}

async function streams(browser: Browser, stack: Stack, chats: Chats): Promise<void> {
  // The plain client first, with no page open on the chat (a page would reload it after the turn).
  const plain = await plainStream(stack, chats.long.id, "plain");
  if ("gaveUp" in plain) {
    report({ bench: "transcript.stream", messages: MESSAGES, pass: false, gaveUp: plain.gaveUp });
    return;
  }
  // The long chat now ends with the plain client's answer.
  const ui = await uiStream(browser, stack, chats, "long", plain.deltas, longMarkdownMarks(streamPrompt("plain")).last);
  const empty = await uiStream(browser, stack, chats, "baseline", plain.deltas, lastMessageMark(chats.baseline.tag));
  const worstTask =
    ui.longestTaskMs === undefined ? undefined : Math.max(ui.longestTaskMs, ui.settleLongestTaskMs ?? 0);
  const r = (v: number | undefined, digits = 2) => (v === undefined ? null : round(v, digits));
  report({
    bench: "transcript.stream",
    messages: MESSAGES,
    answerKb: LONG_MARKDOWN_DEFAULTS.kb,
    deltas: plain.deltas,
    gatewayDelayMs: LONG_MARKDOWN_DEFAULTS.delayMs,
    perDeltaMs: r(ui.perDeltaMs, 3),
    baselinePlainClientPerDeltaMs: round(plain.perDeltaMs, 3),
    perDeltaRatio: ratio(ui.perDeltaMs, plain.perDeltaMs),
    fps: r(ui.fps, 1),
    slowFrameShare: r(ui.slowFrameShare, 3),
    longestTaskMs: r(ui.longestTaskMs, 1),
    afterLongestTaskMs: r(ui.settleLongestTaskMs, 1),
    firstLinePaintedMs: r(ui.firstPaintedMs, 1),
    firstLineLagMs: r(ui.firstLineLagMs, 1),
    lastLineLagMs: r(ui.lastLineLagMs, 1),
    baselinePlainClientFirstDeltaMs: round(plain.firstDeltaMs, 1),
    baselineEmptyChatPerDeltaMs: r(empty.perDeltaMs, 3),
    baselineEmptyChatFps: r(empty.fps, 1),
    baselineEmptyChatLongestTaskMs: r(empty.longestTaskMs, 1),
    targetLongestTaskMs: TARGETS.streamTaskMs,
    targetFps: TARGETS.streamFps,
    targetPerDeltaRatio: TARGETS.perDeltaRatio,
    pass:
      worstTask !== undefined &&
      worstTask <= TARGETS.streamTaskMs &&
      (ui.fps ?? 0) >= TARGETS.streamFps &&
      ui.perDeltaMs !== undefined &&
      ui.perDeltaMs <= TARGETS.perDeltaRatio * plain.perDeltaMs,
    ...(ui.gaveUp ? { gaveUp: ui.gaveUp } : {}),
    ...(empty.gaveUp ? { baselineEmptyChatGaveUp: empty.gaveUp } : {}),
  });
}

// ---------------------------------------------------------------------------------------------

type Chats = { long: { id: string; tag: string }; baseline: { id: string; tag: string } };

export async function runTranscriptBench(): Promise<void> {
  if (!chromiumAvailable()) {
    for (const bench of ["transcript.open", "transcript.scroll", "transcript.stream"])
      report({ bench, skipped: "Chromium is not installed (apt-get install chromium)", pass: null });
  }
  const stack = await startStack();
  let browser: Browser | undefined;
  try {
    await json(
      await stack.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-fake-bench" }] }),
    );
    const [project] = await json<{ id: string }[]>(await stack.api("GET", "/api/projects"));
    const store = path.join(path.dirname(stack.projectDir), "home", "store.sqlite");
    if (!fs.existsSync(store)) throw new Error(`the server's store is not at ${store}`);
    const newChat = async (title: string) =>
      (
        await json<{ id: string }>(
          await stack.api("POST", `/api/projects/${project!.id}/chats`, { modelId: LONG_MARKDOWN_MODEL, title }),
        )
      ).id;
    const chats: Chats = {
      long: { id: await newChat(`${MESSAGES} messages`), tag: "long" },
      baseline: { id: await newChat("Two messages"), tag: "baseline" },
    };
    let t = performance.now();
    const chars = fillChat(store, chats.long.id, MESSAGES, LONG_MARKDOWN_MODEL, chats.long.tag);
    fillChat(store, chats.baseline.id, 2, LONG_MARKDOWN_MODEL, chats.baseline.tag);
    const listDir = path.join(path.dirname(stack.projectDir), "many-chats");
    fs.mkdirSync(listDir);
    const listProject = await json<{ id: string }>(await stack.api("POST", "/api/projects", { dir: listDir }));
    addChats(store, listProject.id, LIST_CHATS, LONG_MARKDOWN_MODEL);
    process.stderr.write(
      `transcript: ${MESSAGES} messages (${round(chars / 1024 / 1024, 1)} MB of text) and ${LIST_CHATS} chats written in ${round((performance.now() - t) / 1000, 1)} s\n`,
    );

    await apiPages(stack, chats.long.id, listProject.id);
    if (!chromiumAvailable()) return;
    browser = await launchChromium();
    t = performance.now();
    await openAndScroll(browser, stack, chats);
    process.stderr.write(`transcript: open and scroll in ${round((performance.now() - t) / 1000, 1)} s\n`);
    t = performance.now();
    await streams(browser, stack, chats);
    process.stderr.write(`transcript: streams in ${round((performance.now() - t) / 1000, 1)} s\n`);
  } finally {
    await browser?.close();
    await stack.stop();
  }
}
