// Syntax highlighting of code blocks (highlight.js's common languages), loaded on the first block
// that needs it, so the first screen never carries it. A block is highlighted once it is finished:
// a streaming answer's open fence stays plain until it closes (issue 36). Only blocks that name a
// known language are highlighted (guessing one is slow and often wrong), and blocks longer than
// MAX_HIGHLIGHT_CHARS stay plain, so highlighting never holds the page up. The HTML highlight.js
// writes escapes the code; it is sanitised again all the same.
import DOMPurify from "dompurify";

export const MAX_HIGHLIGHT_CHARS = 20_000;

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
  loading ??= import("highlight.js/lib/common").then((module) => module.default);
  void loading.then(
    (hljs) => {
      // Gone, or changed meanwhile: leave it as it is.
      if (!code.isConnected || code.textContent !== text || !hljs.getLanguage(language)) {
        code.dataset.highlight = "none";
        return;
      }
      const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
      code.innerHTML = DOMPurify.sanitize(html, { ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"] });
      code.dataset.highlight = language;
    },
    () => {
      code.dataset.highlight = "none";
      loading = undefined;
    },
  );
}
