// The plan a chat implements ("Implement this plan", Plan mode): which answer of the chat holds it.
// Kept in app_kv under the chat's id, so no column is needed; every later turn of the chat sends that
// answer's text as a pinned layer (`instructions`), which compaction never summarises away.
import { z } from "zod";
import type { AppKvRepo } from "../../platform/app-kv-repo";
import type { Message } from "../../shared/chats";

const PREFIX = "chat.pinnedPlan:";
const pinSchema = z.object({ messageId: z.string().min(1) });

/** How the pinned plan is put before the model: what it is, and that it is to be carried out. */
export function pinnedPlanText(plan: string): string {
  return `The plan for this chat, which the user approved and asked to implement (kept here however long the chat gets):\n\n${plan}`;
}

export class PlanPins {
  constructor(
    private readonly kv: AppKvRepo,
    /** A stored message by id (undefined once it, or its chat, is gone). */
    private readonly message: (id: string) => Message | undefined,
  ) {}

  /** One plan per chat: pinning another replaces it. */
  pin(chatId: string, messageId: string): void {
    this.kv.set(PREFIX + chatId, JSON.stringify({ messageId }));
  }

  pinnedId(chatId: string): string | undefined {
    const row = this.kv.get(PREFIX + chatId);
    if (!row) return undefined;
    try {
      const pin = pinSchema.safeParse(JSON.parse(row.value));
      return pin.success ? pin.data.messageId : undefined;
    } catch {
      return undefined;
    }
  }

  /** The pinned plan's text; undefined without a pin, or when its message is no longer the chat's. */
  text(chatId: string): string | undefined {
    const id = this.pinnedId(chatId);
    const message = id === undefined ? undefined : this.message(id);
    return message?.chatId === chatId && message.content.trim() !== "" ? message.content : undefined;
  }

  forget(chatId: string): void {
    this.kv.delete(PREFIX + chatId);
  }
}
