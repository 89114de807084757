// YAML front matter at the top of a Markdown file (as in SKILL.md), parsed with the `yaml` library.
import { parse } from "yaml";

const FRONT_MATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function readFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { data: {}, body: text };
  let data: unknown;
  try {
    data = parse(match[1]!);
  } catch {
    // Hand-written front matter is often not strict YAML (`description: Use it: carefully`):
    // fall back to one `key: value` per line rather than losing the whole block.
    data = Object.fromEntries(
      match[1]!
        .split(/\r?\n/)
        .map((line) => /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1], m[2]!.trim().replace(/^(["'])(.*)\1$/, "$2")]),
    );
  }
  const object =
    typeof data === "object" && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
  return { data: object, body: text.slice(match[0].length) };
}
