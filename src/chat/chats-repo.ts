// Table chats: one row per chat, with the per-chat settings a turn reads.
import { randomBytes } from "node:crypto";
import type { Chat } from "../shared/chats";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

type ChatRow = {
  id: string;
  project_id: string;
  title: string;
  prompt_id: string | null;
  card_prompt_id: string | null;
  model_id: string | null;
  agent: string | null;
  tools_json: string | null;
  agent_files: number | null;
  skills: number | null;
  leaf_id: string | null;
  worktree_branch: string | null;
  created_at: string;
  updated_at: string;
};

const toBool = (v: number | null) => (v === null ? null : v === 1);
const fromBool = (v: boolean | null | undefined) => (v === null || v === undefined ? null : v ? 1 : 0);

function toChat(row: ChatRow): Chat {
  return {
    id: row.id,
    projectId: row.project_id,
    title: row.title,
    promptId: row.prompt_id,
    cardPromptId: row.card_prompt_id,
    modelId: row.model_id,
    agent: row.agent,
    tools: row.tools_json === null ? null : (JSON.parse(row.tools_json) as string[]),
    agentFiles: toBool(row.agent_files),
    skills: toBool(row.skills),
    leafId: row.leaf_id,
    worktreeBranch: row.worktree_branch,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type NewChat = Partial<Omit<Chat, "id" | "projectId" | "leafId" | "createdAt" | "updatedAt">> & {
  projectId: string;
  title: string;
};
/** The leaf moves with the messages (MessagesRepo), never as a plain field. */
export type ChatChanges = Partial<
  Omit<Chat, "id" | "projectId" | "leafId" | "worktreeBranch" | "createdAt" | "updatedAt">
>;

const COLUMN_OF: Record<keyof ChatChanges, string> = {
  title: "title",
  promptId: "prompt_id",
  cardPromptId: "card_prompt_id",
  modelId: "model_id",
  agent: "agent",
  tools: "tools_json",
  agentFiles: "agent_files",
  skills: "skills",
};

function columnValue(key: keyof ChatChanges, value: unknown): unknown {
  if (key === "tools") return value === null || value === undefined ? null : JSON.stringify(value);
  if (key === "agentFiles" || key === "skills") return fromBool(value as boolean | null);
  return value ?? null;
}

export class ChatsRepo {
  constructor(private readonly db: Db) {}

  create(chat: NewChat): Chat {
    const id = `c_${randomBytes(9).toString("base64url")}`;
    const now = nowIso();
    statement(
      this.db,
      `INSERT INTO chats (id, project_id, title, prompt_id, card_prompt_id, model_id, agent, tools_json, agent_files, skills, worktree_branch, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      chat.projectId,
      chat.title,
      chat.promptId ?? null,
      chat.cardPromptId ?? null,
      chat.modelId ?? null,
      chat.agent ?? null,
      columnValue("tools", chat.tools),
      fromBool(chat.agentFiles),
      fromBool(chat.skills),
      chat.worktreeBranch ?? null,
      now,
      now,
    );
    return this.byId(id)!;
  }

  byId(id: string): Chat | undefined {
    const row = statement(this.db, "SELECT * FROM chats WHERE id = ?").get(id) as ChatRow | undefined;
    return row ? toChat(row) : undefined;
  }

  /** Newest activity first. */
  listByProject(projectId: string): Chat[] {
    const rows = statement(
      this.db,
      "SELECT * FROM chats WHERE project_id = ? ORDER BY updated_at DESC, rowid DESC",
    ).all(projectId) as ChatRow[];
    return rows.map(toChat);
  }

  /**
   * A page of the project's chats, newest first: the `limit` after `beforeId` in that order, and
   * whether more follow. Undefined when `beforeId` is not a chat of this project.
   */
  pageByProject(projectId: string, limit: number, beforeId?: string): { chats: Chat[]; hasMore: boolean } | undefined {
    let rows: ChatRow[];
    if (beforeId === undefined) {
      rows = statement(
        this.db,
        "SELECT * FROM chats WHERE project_id = ? ORDER BY updated_at DESC, rowid DESC LIMIT ?",
      ).all(projectId, limit + 1) as ChatRow[];
    } else {
      const before = statement(this.db, "SELECT updated_at, rowid FROM chats WHERE id = ? AND project_id = ?").get(
        beforeId,
        projectId,
      ) as { updated_at: string; rowid: number } | undefined;
      if (!before) return undefined;
      rows = statement(
        this.db,
        `SELECT * FROM chats WHERE project_id = ? AND (updated_at < ? OR (updated_at = ? AND rowid < ?))
         ORDER BY updated_at DESC, rowid DESC LIMIT ?`,
      ).all(projectId, before.updated_at, before.updated_at, before.rowid, limit + 1) as ChatRow[];
    }
    return { chats: rows.slice(0, limit).map(toChat), hasMore: rows.length > limit };
  }

  update(id: string, changes: ChatChanges): Chat | undefined {
    const keys = (Object.keys(changes) as (keyof ChatChanges)[]).filter(
      (k) => changes[k] !== undefined && k in COLUMN_OF,
    );
    const sets = keys.map((k) => `${COLUMN_OF[k]} = ?`);
    const values = keys.map((k) => columnValue(k, changes[k]));
    statement(this.db, `UPDATE chats SET ${[...sets, "updated_at = ?"].join(", ")} WHERE id = ?`).run(
      ...values,
      nowIso(),
      id,
    );
    return this.byId(id);
  }

  touch(id: string): void {
    statement(this.db, "UPDATE chats SET updated_at = ? WHERE id = ?").run(nowIso(), id);
  }

  delete(id: string): boolean {
    return statement(this.db, "DELETE FROM chats WHERE id = ?").run(id).changes > 0;
  }

  /** Clears `promptId` on every chat (of one project, when given) that referenced the prompt. */
  clearPromptId(promptId: string, projectId?: string): Chat[] {
    const where = projectId === undefined ? "prompt_id = ?" : "prompt_id = ? AND project_id = ?";
    const params = projectId === undefined ? [promptId] : [promptId, projectId];
    const rows = statement(this.db, `SELECT * FROM chats WHERE ${where}`).all(...params) as ChatRow[];
    statement(this.db, `UPDATE chats SET prompt_id = NULL, updated_at = ? WHERE ${where}`).run(nowIso(), ...params);
    return rows.map(toChat);
  }

  lastEventId(id: string): number {
    const row = statement(this.db, "SELECT last_event_id AS n FROM chats WHERE id = ?").get(id) as
      { n: number } | undefined;
    return row?.n ?? 0;
  }

  setLastEventId(id: string, eventId: number): void {
    statement(this.db, "UPDATE chats SET last_event_id = max(last_event_id, ?) WHERE id = ?").run(eventId, id);
  }
}
