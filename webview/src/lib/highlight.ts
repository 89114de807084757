// Syntax highlighting of code blocks (highlight.js's common languages), loaded on the first block
// that needs it, so the first screen never carries it. A block is highlighted once it is finished:
// a streaming answer's open fence stays plain until it closes (issue 36). Only blocks that name a
// known language are highlighted (guessing one is slow and often wrong). A block longer than
// MAIN_THREAD_CHARS is highlighted in a worker, so highlighting never holds the page up; past
// MAX_HIGHLIGHT_CHARS, or where no worker can start, it stays plain. The HTML highlight.js writes
// escapes the code; it is sanitised again all the same.
import DOMPurify from "dompurify";
import type { HighlightDone, HighlightJob } from "./highlight-worker";

export const MAIN_THREAD_CHARS = 20_000;
export const MAX_HIGHLIGHT_CHARS = 2_000_000;

type Highlighter = typeof import("highlight.js/lib/common").default;
let loading: Promise<Highlighter> | undefined;

/** The block's language from its `language-…` class, if it names one. */
export function codeLanguage(className: string): string | undefined {
  return /(?:^|\s)language-([\w+#.-]+)/.exec(className)?.[1];
}

/** Highlights a finished `<code>` block in place (once; later calls do nothing). */
export function highlightCode(code: HTMLElement): void {
  if (code.dataset.highlight !== undefined) return;
  const language = codeLanguage(code.className);
  const text = code.textContent ?? "";
  if (!language || text.length > MAX_HIGHLIGHT_CHARS) return;
  code.dataset.highlight = "pending";
  const highlighted = text.length > MAIN_THREAD_CHARS ? inWorker(text, language) : onMainThread(text, language);
  void highlighted.then(
    (html) => {
      // Gone, or changed meanwhile: leave it as it is.
      if (html === null || !code.isConnected || code.textContent !== text) {
        code.dataset.highlight = "none";
        return;
      }
      code.innerHTML = DOMPurify.sanitize(html, { ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"] });
      code.dataset.highlight = language;
    },
    () => (code.dataset.highlight = "none"),
  );
}

async function onMainThread(text: string, language: string): Promise<string | null> {
  loading ??= import("highlight.js/lib/common").then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  const hljs = await loading;
  return hljs.getLanguage(language) ? hljs.highlight(text, { language, ignoreIllegals: true }).value : null;
}

let worker: Promise<Worker> | undefined;
let nextJob = 0;
const waiting = new Map<number, (html: string | null) => void>();

/** One worker for all large blocks, started on the first; a worker that cannot start leaves them plain. */
async function inWorker(text: string, language: string): Promise<string | null> {
  worker ??= import("./highlight-worker?worker&inline").then(({ default: HighlightWorker }) => {
    const started = new HighlightWorker();
    started.onmessage = (event: MessageEvent<HighlightDone>) => {
      waiting.get(event.data.id)?.(event.data.html);
      waiting.delete(event.data.id);
    };
    started.onerror = () => {
      for (const done of waiting.values()) done(null);
      waiting.clear();
    };
    return started;
  });
  const running = await worker;
  const id = nextJob++;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    running.postMessage({ id, code: text, language } satisfies HighlightJob);
  });
}
