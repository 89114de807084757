// A web page as markdown for the model (contract 7.5). Turndown: the most used HTML-to-markdown
// converter for JavaScript, maintained, with a full HTML parser (domino) under it in Node, so broken
// real-world markup converts as a browser would read it; node-html-markdown, the other candidate, took
// minutes on a 5 MB page in our trial where Turndown took seconds. Scripts, styles and other things that
// are not text are dropped; links and images are made absolute against the page's URL so the model
// can fetch them; inline (data:) images, often megabytes of base64, keep only their alt text.
import TurndownService from "turndown";

/** Elements whose content is never text for a reader. */
const DROPPED: ReadonlySet<string> = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "IFRAME",
  "OBJECT",
  "EMBED",
  "SVG",
  "CANVAS",
  "VIDEO",
  "AUDIO",
  "SELECT",
  "BUTTON",
]);

function absolute(href: string | null, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === "http:" || url.protocol === "https:" || url.protocol === "mailto:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Parentheses and spaces in a destination would end it early in markdown. */
const destination = (url: string) =>
  url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

export function htmlToMarkdown(html: string, baseUrl: string): string {
  const service = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
  });
  service.remove((node) => DROPPED.has(node.nodeName.toUpperCase()));
  service.addRule("absoluteLinks", {
    filter: (node) => node.nodeName === "A" && node.getAttribute("href") !== null,
    replacement: (content, node) => {
      const href = absolute((node as HTMLElement).getAttribute("href"), baseUrl);
      const text = content.trim();
      // A `javascript:` or other non-web link: its text alone.
      if (!href) return content;
      return text ? `[${text}](${destination(href)})` : "";
    },
  });
  service.addRule("absoluteImages", {
    filter: "img",
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const alt = (element.getAttribute("alt") ?? "").replace(/\s+/g, " ").trim();
      const src = absolute(element.getAttribute("src"), baseUrl);
      if (!src || src.startsWith("mailto:")) return alt;
      return `![${alt.replace(/[[\]]/g, "")}](${destination(src)})`;
    },
  });
  // Runs of blank lines left where dropped elements stood, and spaces at line ends (markdown's hard
  // breaks among them, which a model reading the text has no use for), carry nothing.
  return service
    .turndown(html)
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
