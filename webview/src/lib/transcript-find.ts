// Find in chat (issue 36): the transcript's items whose text holds the query, over every loaded
// message whether or not the virtualized list has it in the DOM. Pure.
import type { TranscriptItem } from "./transcript";
import { outputText } from "./tool-cards";

/** What a reader can find of an item: its text, a card's call and output, a summary, a file's path. */
export function itemText(item: TranscriptItem): string {
  switch (item.kind) {
    case "user":
    case "assistant":
      return item.message.content;
    case "tool":
      return `${item.card.name} ${JSON.stringify(item.card.args ?? "")} ${outputText(item.card.name, item.card.output)}`;
    case "compaction":
      return item.compaction.summary;
    case "file":
      return item.path;
    case "revert":
      return item.paths.join(" ");
  }
}

/** The keys of the items that hold the query (case and spacing aside), in transcript order. */
export function findInTranscript(items: readonly TranscriptItem[], query: string): string[] {
  const wanted = normalized(query.trim());
  if (!wanted) return [];
  return items.filter((item) => normalized(itemText(item)).includes(wanted)).map((item) => item.key);
}

function normalized(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ");
}
