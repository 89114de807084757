// Chats: create, read with transcript and usage totals, change, delete.
import { addToTotals, emptyTotals } from "../core/usage";
import { notFound } from "../core/app-error";
import type { Chat, CreateChatBody, Message, PatchChatBody } from "../shared/chats";
import type { UsageTotals } from "../shared/usage";
import type { ChatsRepo } from "../store/chats-repo";
import type { MessagesRepo } from "../store/messages-repo";
import type { EventBus } from "./event-bus";

export const DEFAULT_CHAT_TITLE = "New chat";

export class ChatService {
  constructor(
    private readonly chats: ChatsRepo,
    private readonly messages: MessagesRepo,
    private readonly events: EventBus,
  ) {}

  list(projectId: string): Chat[] {
    return this.chats.listByProject(projectId);
  }

  create(projectId: string, body: CreateChatBody, extra: { cardPromptId?: string } = {}): Chat {
    const chat = this.chats.create({ ...body, projectId, title: body.title ?? DEFAULT_CHAT_TITLE, cardPromptId: extra.cardPromptId ?? null });
    this.changed(chat);
    return chat;
  }

  get(id: string): Chat {
    const chat = this.chats.byId(id);
    if (!chat) throw notFound(`no chat with id ${id}`);
    return chat;
  }

  withMessages(id: string): Chat & { messages: Message[]; usage: UsageTotals } {
    const chat = this.get(id);
    const messages = this.messages.listByChat(id);
    const usage = messages.reduce((totals, m) => (m.usage ? addToTotals(totals, m.usage) : totals), emptyTotals());
    return { ...chat, messages, usage };
  }

  update(id: string, body: PatchChatBody): Chat {
    this.get(id);
    const chat = this.chats.update(id, body)!;
    this.changed(chat);
    return chat;
  }

  delete(id: string): void {
    const chat = this.get(id);
    this.chats.delete(id);
    this.changed(chat);
  }

  /** The title an untitled chat takes from its first message, as people expect from a chat list. */
  titleFor(chat: Chat, content: string): string | undefined {
    if (chat.title !== DEFAULT_CHAT_TITLE) return undefined;
    const line = content.replace(/\s+/g, " ").trim();
    if (!line) return undefined;
    return line.length > 60 ? `${line.slice(0, 57).trimEnd()}…` : line;
  }

  changed(chat: Chat): void {
    this.events.publish({ type: "chats.changed", data: { projectId: chat.projectId, chatId: chat.id } });
  }
}
