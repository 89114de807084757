// Model output as HTML: Markdown rendered by `marked`, then sanitised by DOMPurify, because the UI
// holds an access token and must never run script that a model (or a file it quotes) wrote.
import { marked } from "marked";
import DOMPurify from "dompurify";

marked.setOptions({ gfm: true, breaks: false });

export function renderMarkdown(text: string): string {
  const html = marked.parse(text, { async: false }) as string;
  const safe = DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input"],
    FORBID_ATTR: ["style"],
  });
  // A wide table scrolls sideways in its own box (320 px side panel): keyboard users reach it with
  // Tab and scroll it with the arrows, as a code block. Only `marked`'s own bare <table> tags can match
  // here: a "<table>" in the text is escaped by now.
  return safe.replaceAll("<table>", '<table tabindex="0">');
}
