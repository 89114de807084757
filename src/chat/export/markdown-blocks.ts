// Markdown pieces that hold any text safely: a code fence longer than every backtick run inside it,
// inline code likewise, and text for an HTML element. Pure.

/** The longest run of backticks in `text` (0 when none). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const [run] of text.matchAll(/`+/g)) longest = Math.max(longest, run.length);
  return longest;
}

/** `text` in a fenced code block that nothing in it can close early; `info` names the language. */
export function fenced(text: string, info = ""): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${fence}`;
}

/** `text` as inline code (spaces pad it where it starts or ends with a backtick, as CommonMark wants). */
export function inlineCode(text: string): string {
  const ticks = "`".repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** Text for inside an HTML element (a `<summary>`): `&`, `<` and `>` escaped. */
export function htmlText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/** `body` (markdown) under a `<details>` element that shows `summary` and folds the rest. */
export function collapsible(summary: string, body: string): string {
  return `<details>\n<summary>${htmlText(summary)}</summary>\n\n${body}\n\n</details>`;
}
