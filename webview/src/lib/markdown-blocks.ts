// A streaming answer's Markdown as blocks (issue 36): the blocks that are finished (a blank line and
// the start of the next block follow them) are rendered once and kept, so only the unfinished tail is
// parsed again as text arrives. Lexing starts where the finished blocks end, so a frame's work is the
// tail's size, not the answer's. Pure; `marked`'s lexer decides where blocks end.
import { marked, type Token } from "marked";

export type MarkdownBlock = { id: number; text: string };

/** What the tail is: an open code fence is shown as plain code (no Markdown pass over a growing block). */
export type MarkdownTail = { text: string; openFence?: { lang: string; code: string } };

export class MarkdownBlocks {
  private finishedText = "";
  private nextId = 0;
  readonly blocks: MarkdownBlock[] = [];
  /** Characters the last update lexed: the tail's, never the whole answer's. */
  lexedChars = 0;

  /** How much of the text the finished blocks cover (blank lines between them included). */
  get finishedLength(): number {
    return this.finishedText.length;
  }

  /**
   * Takes the whole text so far: returns the blocks it finished (appended to `blocks`) and the tail.
   * A text that does not continue the finished part (a new answer) starts over.
   */
  update(text: string): { added: MarkdownBlock[]; tail: MarkdownTail; reset: boolean } {
    let reset = false;
    if (!text.startsWith(this.finishedText)) {
      this.finishedText = "";
      this.blocks.length = 0;
      reset = true;
    }
    const rest = text.slice(this.finishedText.length);
    this.lexedChars = rest.length;
    const tokens = marked.lexer(rest);
    const added: MarkdownBlock[] = [];
    // Finished: every block up to the last blank line that another block follows.
    let end = -1;
    for (let i = tokens.length - 2; i >= 0; i--)
      if (tokens[i]!.type === "space") {
        end = i;
        break;
      }
    let block = "";
    for (let i = 0; i <= end; i++) {
      block += tokens[i]!.raw;
      if (tokens[i]!.type === "space" && block.trim() !== "") {
        added.push({ id: this.nextId++, text: block });
        block = "";
      }
    }
    for (const finished of added) {
      this.blocks.push(finished);
      this.finishedText += finished.text;
    }
    // A leading run of blank lines counts with the finished part, so it is not lexed again.
    this.finishedText += block;
    const tailText = text.slice(this.finishedText.length);
    return { added, tail: describeTail(tailText, tokens.at(-1)), reset };
  }
}

function describeTail(text: string, last: Token | undefined): MarkdownTail {
  if (
    last?.type === "code" &&
    /^ {0,3}(`{3,}|~{3,})/.test(last.raw) &&
    text.trimStart().startsWith(last.raw.trimStart())
  ) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/m.exec(last.raw)!;
    const closed = new RegExp(`\\n {0,3}${fence[1]![0]}{${fence[1]!.length},}\\s*$`).test(last.raw);
    if (!closed) {
      const before = text.slice(0, text.length - last.raw.length);
      if (before.trim() === "")
        return {
          text,
          openFence: { lang: fence[2]!.trim().split(/\s/)[0] ?? "", code: last.raw.slice(fence[0].length + 1) },
        };
    }
  }
  return { text };
}
