// A chat's title from its first message: one line of plain text, at most 60 characters. Markdown
// marks (emphasis, code ticks, headings, quotes, links and images) are dropped, so a list shows
// "markdown", not "**markdown**". Pure.

const MAX_TITLE = 60;

export function plainTitle(content: string): string | undefined {
  const text = content
    .replace(/```[^\n]*\n?/g, " ")
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, "")
    .replace(/(\*\*|\*|~~|`)(?=\S)([^\n]*?\S)\1/g, "$2")
    // Underscores mark emphasis only at word edges: snake_case stays as it is.
    .replace(/(^|[^\w])(__|_)(?=\S)([^\n]*?\S)\2(?!\w)/g, "$1$3")
    .replace(/`+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!text) return undefined;
  return text.length > MAX_TITLE ? `${text.slice(0, MAX_TITLE - 3).trimEnd()}…` : text;
}
