// The transcript bench's instruments inside the page, installed before the app's own scripts (an
// init script): every frame's time (requestAnimationFrame), every main-thread task over 50 ms (the
// `longtask` PerformanceObserver), when a turn's text deltas arrive (a pass-through reader on its
// stream's fetch), a watch for a text to be on screen in the transcript, and the scroll loop. Times
// are the page's performance.now(), from the start of its navigation. A string, so the bundler's
// helpers never leak into the page.

/** In the page as `window.__bench`. */
export const TRANSCRIPT_PROBE = `(() => {
  if (window.__bench) return;
  const frames = [];
  const longTasks = [];
  const watches = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) longTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  // When a turn's text reaches the page: its stream's body passes through a reader that notes the
  // arrival of the first and the last chunk holding a text delta (the app reads it unchanged).
  const streams = [];
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await fetch0(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const turnStream = url.includes("/api/chats/") && /stream([?]|$)/.test(url);
    if (!turnStream || !response.body) return response;
    const seen = { firstDeltaAt: undefined, lastDeltaAt: undefined };
    streams.push(seen);
    const decoder = new TextDecoder();
    const body = response.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          if (decoder.decode(chunk, { stream: true }).includes("text.delta")) {
            seen.lastDeltaAt = performance.now();
            if (seen.firstDeltaAt === undefined) seen.firstDeltaAt = seen.lastDeltaAt;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  const transcript = () => document.querySelector('[aria-label="Transcript"]');
  // The transcript's last (or first) dozen items, and the whole list while it is short: a list of
  // thousands is not read in full every frame (that would be a long task of its own).
  const has = (text, end) => {
    const list = transcript();
    if (!list) return false;
    if (list.childElementCount <= 100) return list.textContent.includes(text);
    let item = end === "first" ? list.firstElementChild : list.lastElementChild;
    for (let i = 0; item && i < 12; i++) {
      if (item.textContent.includes(text)) return true;
      item = end === "first" ? item.nextElementSibling : item.previousElementSibling;
    }
    return false;
  };
  const tick = (now) => {
    frames.push(now);
    for (const w of watches) {
      if (w.seenAt === undefined) {
        if (has(w.text, "last")) w.seenAt = now;
      } else if (w.paintedAt === undefined) {
        // The frame after the one that had it in the DOM: it has been painted.
        w.paintedAt = now;
        w.resolve({ seenAt: w.seenAt, paintedAt: w.paintedAt });
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

  /** Resolves with {seenAt, paintedAt} once the text is in the transcript, or null after timeoutMs. */
  const watch = (text, timeoutMs) => {
    const w = { text };
    const done = new Promise((resolve) => {
      w.resolve = resolve;
      setTimeout(() => resolve(null), timeoutMs);
    });
    watches.push(w);
    return done;
  };
  const between = (from, to) => frames.filter((t) => t >= from && t <= to);
  const deltas = (times) => times.slice(1).map((t, i) => t - times[i]);
  /** Tasks over 50 ms that overlap [from, to]. */
  const tasks = (from, to) => longTasks.filter(([start, duration]) => start + duration >= from && start <= to);
  const scroller = () => {
    for (let el = transcript(); el; el = el.parentElement) {
      const overflow = getComputedStyle(el).overflowY;
      if (el.scrollHeight > el.clientHeight + 1 && /auto|scroll|overlay/.test(overflow)) return el;
    }
    return undefined;
  };

  window.__bench = {
    watch,
    tasks,
    frameDeltas: (from, to) => deltas(between(from, to)),
    now: () => performance.now(),
    /** The last turn stream the page read: when its first and last text deltas arrived. */
    lastStream: () => streams.at(-1) ?? null,
    /** Until the next frame has been painted. */
    nextFrame: () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))),
    counts: () => {
      const list = transcript();
      return {
        transcriptElements: list ? list.querySelectorAll("*").length + 1 : 0,
        transcriptItems: list ? list.childElementCount : 0,
        documentElements: document.getElementsByTagName("*").length,
      };
    },
    /**
     * Scrolls the transcript up by stepPx each frame until its top shows firstText (older pages may
     * load on the way), or for maxMs, and at least minFrames frames (the idle baseline scrolls
     * nothing). Resolves with the frame times of the run.
     */
    scroll: (stepPx, firstText, maxMs, minFrames) =>
      new Promise((resolve) => {
        const el = scroller();
        const from = el ? el.scrollTop : 0;
        const started = performance.now();
        const times = [];
        let moved = 0;
        let reachedTop = false;
        const step = (now) => {
          times.push(now);
          if (el && !reachedTop) {
            const before = el.scrollTop;
            el.scrollTop = before - stepPx;
            moved += Math.abs(before - el.scrollTop);
            reachedTop = el.scrollTop === before && has(firstText, "first");
          }
          const elapsed = now - started;
          const enough = (reachedTop || !el) && times.length >= minFrames;
          if (enough || elapsed > maxMs) {
            resolve({
              frameMs: deltas(times),
              scrolledPx: Math.round(moved),
              startScrollTop: Math.round(from),
              scrollable: Boolean(el),
              reachedTop,
              seconds: elapsed / 1000,
            });
          } else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
  };
})()`;

export type Painted = { seenAt: number; paintedAt: number };
export type ScrollRun = {
  frameMs: number[];
  scrolledPx: number;
  startScrollTop: number;
  scrollable: boolean;
  reachedTop: boolean;
  seconds: number;
};
export type StreamArrival = { firstDeltaAt?: number; lastDeltaAt?: number };
export type DomCounts = { transcriptElements: number; transcriptItems: number; documentElements: number };
