// What picking an item of the @ popup does to the text (spec, composer rules 16 and 17): the whole
// token under the caret is replaced, with exactly one space after it and never two; a tool with
// parameters gets `@tool:firstArg=` and a pair of backticks with the caret between them.
import type { MentionToken } from "./mention-token";

export type TextEdit = { text: string; caret: number };

/** Picker syntax: the inserted text ends with an empty backtick pair the caret goes into. */
export const isPickerInsert = (insertText: string) => /:[A-Za-z_][\w.-]*=``$/.test(insertText);

/** Replaces `token` in `text` with `insertText`. */
export function insertMention(text: string, token: Pick<MentionToken, "start" | "end">, insertText: string): TextEdit {
  const before = text.slice(0, token.start);
  const after = text.slice(token.end);
  const startsWithSpace = after === "" ? false : /^\s/.test(after);
  if (isPickerInsert(insertText)) {
    // The caret goes right after the opening backtick, so the first keystroke fills the value.
    const gap = after === "" || startsWithSpace ? "" : " ";
    return { text: before + insertText + gap + after, caret: before.length + insertText.length - 1 };
  }
  // Agents come with their own trailing space; the one space after the item is added here, once
  // (none before a closing bracket or quote: `(see @a.ts)`).
  const item = insertText.trimEnd();
  if (/^[)\]}"'>`]/.test(after)) return { text: before + item + after, caret: before.length + item.length };
  const rest = startsWithSpace ? after : ` ${after}`;
  return { text: before + item + rest, caret: before.length + item.length + 1 };
}
