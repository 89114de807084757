// What a project card shows: the prompts offered as one-tap new chats, the chats it lists (recent
// ones, or every match of a search), and the icon of a chat started from a card prompt. Pure.
import type { Chat } from "$shared/chats";
import type { Prompt, PromptIcon } from "$shared/prompts";
import { filterChats } from "./chat-filter";

/** How many chats a card lists, newest first, when several projects share the page. */
export const RECENT_CHATS = 5;

/** The prompts with `showOnProjectCard` available in the project (an app prompt it overrides is not). */
export function cardPrompts(prompts: readonly Prompt[]): Prompt[] {
  return prompts.filter((p) => p.showOnProjectCard && !p.overridden);
}

/**
 * The chats a card lists. A search looks at every chat; otherwise `limit` caps the list (none: all),
 * and `hidden` says how many more "Show all" would add.
 */
export function cardChats(
  chats: readonly Chat[],
  query: string,
  limit: number | undefined,
): { shown: readonly Chat[]; hidden: number } {
  if (query.trim()) return { shown: filterChats(chats, query), hidden: 0 };
  if (limit === undefined || chats.length <= limit) return { shown: chats, hidden: 0 };
  return { shown: chats.slice(0, limit), hidden: chats.length - limit };
}

/** The icon (and its prompt's title) of a chat started from a project-card prompt, while that prompt exists. */
export function chatCardIcon(chat: Chat, prompts: readonly Prompt[]): { icon: PromptIcon; title: string } | undefined {
  if (!chat.cardPromptId) return undefined;
  const prompt =
    prompts.find((p) => p.id === chat.cardPromptId && !p.overridden) ?? prompts.find((p) => p.id === chat.cardPromptId);
  return prompt ? { icon: prompt.icon, title: prompt.title } : undefined;
}
