// A search hit's snippet (GET /api/search) as pieces of text to show, the matched ones marked. The
// snippet's only tags are `<mark>` and `</mark>`, its other `&`, `<` and `>` written as entities:
// split on the tags and decode those three, never parse it as HTML. Pure.

export type SnippetPart = { text: string; marked: boolean };

const decode = (text: string) => text.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");

export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of snippet.split(/(<\/?mark>)/)) {
    if (piece === "<mark>") marked = true;
    else if (piece === "</mark>") marked = false;
    else if (piece) parts.push({ text: decode(piece), marked });
  }
  return parts;
}
