// Table worktrees: where each worktree chat's worktree is, the branch it works on and where it came from.
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type WorktreeRecord = {
  chatId: string;
  /** The repository's top folder: the project's checkout, where a merge lands. */
  repoDir: string;
  /** The repository's git folder (shared by its worktrees): a worktree chat's commands may write it, but its hooks and config. */
  gitDir: string;
  /** The worktree's folder. */
  path: string;
  /** The project folder relative to `repoDir` ('' when the project is the repository): tools run there in the worktree. */
  subdir: string;
  branch: string;
  base: string;
  baseCommit: string;
  startedDirty: boolean;
  state: "ready" | "discarded";
  createdAt: string;
};

type Row = {
  chat_id: string;
  repo_dir: string;
  git_dir: string;
  path: string;
  subdir: string;
  branch: string;
  base: string;
  base_commit: string;
  started_dirty: number;
  state: string;
  created_at: string;
};

function toRecord(row: Row): WorktreeRecord {
  return {
    chatId: row.chat_id,
    repoDir: row.repo_dir,
    gitDir: row.git_dir,
    path: row.path,
    subdir: row.subdir,
    branch: row.branch,
    base: row.base,
    baseCommit: row.base_commit,
    startedDirty: row.started_dirty === 1,
    state: row.state === "discarded" ? "discarded" : "ready",
    createdAt: row.created_at,
  };
}

export class WorktreesRepo {
  constructor(private readonly db: Db) {}

  insert(record: Omit<WorktreeRecord, "state" | "createdAt">): void {
    statement(
      this.db,
      `INSERT INTO worktrees (chat_id, repo_dir, git_dir, path, subdir, branch, base, base_commit, started_dirty, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      record.chatId,
      record.repoDir,
      record.gitDir,
      record.path,
      record.subdir,
      record.branch,
      record.base,
      record.baseCommit,
      record.startedDirty ? 1 : 0,
      nowIso(),
    );
  }

  byChat(chatId: string): WorktreeRecord | undefined {
    const row = statement(this.db, "SELECT * FROM worktrees WHERE chat_id = ?").get(chatId) as Row | undefined;
    return row ? toRecord(row) : undefined;
  }

  /** Every worktree not discarded: the folders Parley keeps (start-up clean-up keeps exactly these). */
  active(): WorktreeRecord[] {
    return (statement(this.db, "SELECT * FROM worktrees WHERE state = 'ready'").all() as Row[]).map(toRecord);
  }

  /** The git folder of every repository a worktree chat was made in (start-up clean-up knows its orphans by them). */
  gitDirs(): string[] {
    return (statement(this.db, "SELECT DISTINCT git_dir FROM worktrees").all() as { git_dir: string }[]).map(
      (row) => row.git_dir,
    );
  }

  /** A project's worktree chats (not discarded), newest first. */
  activeInProject(projectId: string): WorktreeRecord[] {
    return (
      statement(
        this.db,
        `SELECT w.* FROM worktrees w JOIN chats c ON c.id = w.chat_id
          WHERE c.project_id = ? AND w.state = 'ready' ORDER BY w.created_at DESC, w.rowid DESC`,
      ).all(projectId) as Row[]
    ).map(toRecord);
  }

  markDiscarded(chatId: string): void {
    statement(this.db, "UPDATE worktrees SET state = 'discarded' WHERE chat_id = ?").run(chatId);
  }

  /** After a squash the branch starts again from the squashed commit: its base commit moves there. */
  setBaseCommit(chatId: string, commit: string): void {
    statement(this.db, "UPDATE worktrees SET base_commit = ? WHERE chat_id = ?").run(commit, chatId);
  }
}
