// Highlights one large code block off the main thread (lib/highlight.ts sends it here): the same
// highlight.js as for small blocks, so both look alike. Built inline (a Blob URL) so it runs under
// the VS Code webview's CSP as well as the browser's.
import hljs from "highlight.js/lib/common";

export type HighlightJob = { id: number; code: string; language: string };
export type HighlightDone = { id: number; html: string | null };

self.onmessage = (event: MessageEvent<HighlightJob>) => {
  const { id, code, language } = event.data;
  let html: string | null = null;
  try {
    if (hljs.getLanguage(language)) html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  } catch {
    html = null;
  }
  self.postMessage({ id, html } satisfies HighlightDone);
};
