// A long markdown answer, for measuring how the UI paints a big streamed reply: `fake/long-markdown`
// answers about 100 KB of mixed markdown (headings, paragraphs, lists, fenced code, tables, quotes)
// in about 2,000 pieces, 2 ms apart. A message starting `markdown: <kb> <pieces> <delayMs>` sets them.
// The answer's first line and its last line quote the message, so a reader can tell when this
// answer's first and last pieces are on screen (`longMarkdownMarks`).
import type { Scenario } from "./server";

export const LONG_MARKDOWN_MODEL = "fake/long-markdown";
export const LONG_MARKDOWN_DEFAULTS = { kb: 100, pieces: 2_000, delayMs: 2 } as const;
const MAX_KB = 10_000;
const MAX_PIECES = 100_000;

const WORDS = (
  "the server keeps each chat in its store and the interface reads a page of it at a time while " +
  "the answer streams in small pieces that the reader joins into blocks of text lists tables and code"
).split(" ");

/** Deterministic words from a seed: the same text on every run, different from block to block. */
function sentence(seed: number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(seed * 7 + i * 13 + ((seed * i) % 5)) % WORDS.length]!);
  const text = out.join(" ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
}

/** One markdown block of the kind `seed` picks (six kinds in turn), about 300 to 900 characters. */
export function markdownBlock(seed: number): string {
  switch (seed % 6) {
    case 0:
      return `## Part ${seed}\n\n${sentence(seed, 24)} It uses **bold text**, \`inline code\` and [a link](https://example.com/${seed}). ${sentence(seed + 1, 30)}`;
    case 1:
      return [1, 2, 3, 4].map((i) => `- ${sentence(seed + i, 9)} (\`item_${seed}_${i}\`)`).join("\n");
    case 2:
      return [
        "```ts",
        `export function step${seed}(input: string[]): Map<string, number> {`,
        "  const counts = new Map<string, number>();",
        "  for (const word of input) {",
        "    counts.set(word, (counts.get(word) ?? 0) + 1);",
        "  }",
        `  return counts; // ${sentence(seed, 6)}`,
        "}",
        "```",
      ].join("\n");
    case 3:
      return [
        "| Name | Kind | Size | Note |",
        "| --- | --- | ---: | --- |",
        ...[1, 2, 3, 4, 5].map(
          (i) => `| row_${seed}_${i} | ${WORDS[(seed + i) % WORDS.length]} | ${seed * i} | ${sentence(seed + i, 4)} |`,
        ),
      ].join("\n");
    case 4:
      return `> ${sentence(seed, 18)}\n> ${sentence(seed + 2, 14)}\n\n1. ${sentence(seed + 3, 8)}\n2. ${sentence(seed + 4, 8)}\n3. ${sentence(seed + 5, 8)}`;
    default:
      return `${sentence(seed, 40)} ${sentence(seed + 1, 22)}\n\n${sentence(seed + 2, 35)}`;
  }
}

/** About `bytes` of markdown: whole blocks from `seed` on, separated by blank lines. */
export function markdownOfSize(bytes: number, seed = 0): string {
  const blocks: string[] = [];
  let size = 0;
  for (let i = seed; size < bytes; i++) {
    const block = markdownBlock(i);
    blocks.push(block);
    size += block.length + 2;
  }
  return blocks.join("\n\n");
}

/** The answer's first and last lines for a message: each appears once the piece that ends it has. */
export function longMarkdownMarks(said: string): { first: string; last: string } {
  const quoted = said.trim().slice(0, 80);
  return { first: `Here is the long answer to “${quoted}”.`, last: `That was the long answer to “${quoted}”.` };
}

/** The answer in `pieces` pieces: its first line, the body cut evenly (mid-word, mid-fence), its last line. */
export function longMarkdownPieces(said: string, kb: number, pieces: number): string[] {
  const { first, last } = longMarkdownMarks(said);
  const body = markdownOfSize(kb * 1024);
  const middle = Math.max(1, pieces - 2);
  const at = (i: number) => Math.round((i * body.length) / middle);
  const cut = Array.from({ length: middle }, (_, i) => body.slice(at(i), at(i + 1)));
  return [`${first}\n\n`, ...cut, `\n\n${last}`];
}

export function longMarkdownScenario(said: string): Scenario {
  const asked = /^\s*markdown:\s*(\d+(?:\.\d+)?)?\s*(\d+)?\s*(\d+(?:\.\d+)?)?/i.exec(said);
  const kb = Math.min(MAX_KB, Math.max(0.1, Number(asked?.[1] ?? LONG_MARKDOWN_DEFAULTS.kb)));
  const pieces = Math.min(MAX_PIECES, Math.max(3, Number(asked?.[2] ?? LONG_MARKDOWN_DEFAULTS.pieces)));
  const delayMs = Math.max(0, Number(asked?.[3] ?? LONG_MARKDOWN_DEFAULTS.delayMs));
  return { kind: "reply", pieces: longMarkdownPieces(said, kb, pieces), delayMs };
}
