// The chat list's search: pure, so it is tested without a browser.
import type { Chat } from "$shared/chats";

/** The chats whose title or model contains every word of `query`, in any case. */
export function filterChats(chats: readonly Chat[], query: string): readonly Chat[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return chats;
  return chats.filter((chat) => {
    const text = `${chat.title} ${chat.modelId ?? ""}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
