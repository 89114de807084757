// The plan a chat implements ("Implement this plan", Plan mode): which answer of the chat holds it.
// Kept in app_kv under the chat's id, so no column is needed; every later turn of the chat sends that
// answer's text as a pinned layer (`instructions`), which compaction never summarises away, as long as
// the answer is on the version of the conversation the chat shows. A fork that copies it keeps it.
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
    /** Whether a message is on the path that ends at `tip` (a version of the conversation). */
    private readonly onPath: (messageId: string, tip: string | null) => boolean,
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

  /**
   * The pinned plan's text for a request made of the path that ends at `tip` (the chat's leaf, or an
   * edit's or a retry's branch point); undefined without a pin, when its message is no longer the
   * chat's, or when that version of the conversation does not hold it (it branched off before the plan).
   */
  text(chatId: string, tip: string | null): string | undefined {
    const id = this.pinnedId(chatId);
    const message = id === undefined ? undefined : this.message(id);
    if (message?.chatId !== chatId || message.content.trim() === "") return undefined;
    return this.onPath(message.id, tip) ? message.content : undefined;
  }

  /** A fork keeps the plan when the answer that holds it was copied (`copied`: original id → copy's id). */
  carry(fromChatId: string, toChatId: string, copied: ReadonlyMap<string, string>): void {
    const id = this.pinnedId(fromChatId);
    const copy = id === undefined ? undefined : copied.get(id);
    if (copy !== undefined) this.pin(toChatId, copy);
  }

  forget(chatId: string): void {
    this.kv.delete(PREFIX + chatId);
  }
}
