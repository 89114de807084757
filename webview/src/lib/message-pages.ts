// A chat's messages a page at a time (issue 36): what the chat view reads, and how a fresh page of
// the last messages joins the older ones the reader already scrolled to. Pure.
import type { ChatWithMessages } from "$shared/api-routes";

/** Messages read at a time; a reload reads up to MAX_PAGE (the server's limit). */
export const PAGE = 100;
export const MAX_PAGE = 500;

/**
 * A fresh page of the chat's last messages, with the older messages already loaded kept before it
 * (those before the page's first): scrolling up stays where it was across a reload.
 */
export function withOlderKept(current: ChatWithMessages | undefined, page: ChatWithMessages): ChatWithMessages {
  const first = page.messages[0];
  if (!page.hasMore || !current || !first) return page;
  // Only when the two overlap: more new messages than a page would leave a gap between them.
  if ((current.messages.at(-1)?.seq ?? -1) < first.seq) return page;
  const older = current.messages.filter((m) => m.seq < first.seq);
  // On the same branch only: after an edit or a switch of versions the kept part may end elsewhere.
  if (older.length === 0 || older.at(-1)!.id !== first.parentId) return page;
  // The page says whether anything precedes the whole list: what the kept part said.
  return { ...page, messages: [...older, ...page.messages], hasMore: current.hasMore };
}
