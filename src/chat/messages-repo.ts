// Table messages: the transcript of each chat in order, with usage on assistant messages.
import { randomBytes } from "node:crypto";
import type { Message, MessageStatus } from "../shared/chats";
import type { Usage, UsageTotals } from "../shared/usage";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

type MessageRow = {
  id: string;
  chat_id: string;
  seq: number;
  role: Message["role"];
  content: string;
  status: MessageStatus;
  model_id: string | null;
  usage_json: string | null;
  meta_json: string | null;
  created_at: string;
};

function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    chatId: row.chat_id,
    seq: row.seq,
    role: row.role,
    content: row.content,
    status: row.status,
    modelId: row.model_id,
    usage: row.usage_json ? (JSON.parse(row.usage_json) as Usage) : null,
    meta: row.meta_json ? (JSON.parse(row.meta_json) as Record<string, unknown>) : null,
    createdAt: row.created_at,
  };
}

export type NewMessage = Pick<Message, "role" | "content" | "status"> &
  Partial<Pick<Message, "modelId" | "usage" | "meta">>;
export type MessageChanges = Partial<Pick<Message, "content" | "status" | "usage" | "meta">>;

export function newMessageId(): string {
  return `m_${randomBytes(9).toString("base64url")}`;
}

export class MessagesRepo {
  constructor(private readonly db: Db) {}

  /** `id` is given when the message had to be named before it was stored (a turn's `turn.start`). */
  append(chatId: string, message: NewMessage, id = newMessageId()): Message {
    statement(
      this.db,
      `INSERT INTO messages (id, chat_id, seq, role, content, status, model_id, usage_json, meta_json, created_at)
         VALUES (?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE chat_id = ?), ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      chatId,
      chatId,
      message.role,
      message.content,
      message.status,
      message.modelId ?? null,
      message.usage ? JSON.stringify(message.usage) : null,
      message.meta ? JSON.stringify(message.meta) : null,
      nowIso(),
    );
    return this.byId(id)!;
  }

  byId(id: string): Message | undefined {
    const row = statement(this.db, "SELECT * FROM messages WHERE id = ?").get(id) as MessageRow | undefined;
    return row ? toMessage(row) : undefined;
  }

  listByChat(chatId: string): Message[] {
    return (
      statement(this.db, "SELECT * FROM messages WHERE chat_id = ? ORDER BY seq").all(chatId) as MessageRow[]
    ).map(toMessage);
  }

  /**
   * The last `limit` messages before `beforeId` (or the chat's end), in order, and whether older ones
   * exist: one index range read, however long the chat. Undefined when `beforeId` is not this chat's.
   */
  page(chatId: string, limit: number, beforeId?: string): { messages: Message[]; hasMore: boolean } | undefined {
    let beforeSeq = Number.MAX_SAFE_INTEGER;
    if (beforeId !== undefined) {
      const before = statement(this.db, "SELECT seq FROM messages WHERE id = ? AND chat_id = ?").get(
        beforeId,
        chatId,
      ) as { seq: number } | undefined;
      if (!before) return undefined;
      beforeSeq = before.seq;
    }
    const rows = statement(
      this.db,
      "SELECT * FROM messages WHERE chat_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
    ).all(chatId, beforeSeq, limit + 1) as MessageRow[];
    const hasMore = rows.length > limit;
    return { messages: rows.slice(0, limit).reverse().map(toMessage), hasMore };
  }

  /**
   * The chat's usage totals, summed by SQLite over the usage column (the messages' text is never
   * read): a page of a 10,000-message chat comes with them at the cost of one index scan. The cost
   * is unknown (null) as soon as one turn's is, as `addToTotals` has it.
   */
  usageTotals(chatId: string): UsageTotals {
    const row = statement(
      this.db,
      `SELECT count(*) AS turns,
         coalesce(sum(json_extract(usage_json, '$.promptTokens')), 0) AS promptTokens,
         coalesce(sum(json_extract(usage_json, '$.completionTokens')), 0) AS completionTokens,
         coalesce(sum(json_extract(usage_json, '$.totalTokens')), 0) AS totalTokens,
         coalesce(sum(json_extract(usage_json, '$.cachedTokens')), 0) AS cachedTokens,
         coalesce(sum(json_extract(usage_json, '$.reasoningTokens')), 0) AS reasoningTokens,
         coalesce(sum(json_extract(usage_json, '$.cost')), 0) AS cost,
         count(*) - count(json_extract(usage_json, '$.cost')) AS unknownCostTurns
       FROM messages WHERE chat_id = ? AND usage_json IS NOT NULL`,
    ).get(chatId) as UsageTotals;
    return { ...row, cost: row.unknownCostTurns > 0 ? null : row.cost };
  }

  update(id: string, changes: MessageChanges): void {
    const sets: string[] = [];
    const values: unknown[] = [];
    if (changes.content !== undefined) (sets.push("content = ?"), values.push(changes.content));
    if (changes.status !== undefined) (sets.push("status = ?"), values.push(changes.status));
    if (changes.usage !== undefined)
      (sets.push("usage_json = ?"), values.push(changes.usage ? JSON.stringify(changes.usage) : null));
    if (changes.meta !== undefined)
      (sets.push("meta_json = ?"), values.push(changes.meta ? JSON.stringify(changes.meta) : null));
    if (sets.length > 0) statement(this.db, `UPDATE messages SET ${sets.join(", ")} WHERE id = ?`).run(...values, id);
  }

  /** Removes one message (a compaction entry the user undid); whether it existed. */
  delete(id: string): boolean {
    return statement(this.db, "DELETE FROM messages WHERE id = ?").run(id).changes > 0;
  }

  /** After a crash, answers that were still streaming are marked interrupted (their text is kept). */
  markInterrupted(): number {
    return statement(this.db, "UPDATE messages SET status = 'interrupted' WHERE status = 'streaming'").run().changes;
  }
}
