// Which chats a list shows: those started, and those whose title matches a search. Pure, so it is tested without a browser.
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

/**
 * The chats a list shows: those with a message. A chat made by New chat and left before its first
 * message is not listed (it would pile up as one "New chat" row after another); `openId`, the chat on
 * screen, is listed all the same.
 */
export function startedChats(chats: readonly Chat[], openId?: string): readonly Chat[] {
  return chats.filter((chat) => chat.leafId !== null || chat.id === openId);
}
