// Full-text search over every chat's messages (text and tool output): the FTS5 index `messages_fts`
// (migration 8), bm25 order, a snippet around each match. SQL only; the FTS5 query it runs comes
// from ftsMatch, never from the user as typed.
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import type { SearchHit } from "../shared/search";
import { ftsMatch, type SearchWords } from "./fts-query";
import { snippetOf } from "./snippet";

/**
 * How many of the newest matches are ranked. bm25 costs a few microseconds a row: ranking all 70,000
 * matches of "the" in 100,000 messages took 60 ms of CPU, the newest 2,000 under 10 ms. A word rarer
 * than that is ranked over all its matches; a commoner one among its most recent uses, which is also
 * where a user looks first. (Messages' rowids grow as they are written, so "newest" is rowid order,
 * which FTS5 walks without sorting.)
 */
export const RANKED_CANDIDATES = 2_000;
/** How much of a message its snippet is looked for in: a 5 MB tool output is not read whole for 24 words. */
const SNIPPET_SOURCE_CHARS = 100_000;

type RankedRow = { rowid: number; messageId: string; chatId: string; title: string; at: string };

const CANDIDATES = `
  SELECT f.rowid AS rowid, bm25(messages_fts) AS score,
    m.id AS messageId, m.chat_id AS chatId, c.title AS title, m.created_at AS at
  FROM messages_fts f
  JOIN messages m ON m.rowid = f.rowid
  JOIN chats c ON c.id = m.chat_id
  WHERE messages_fts MATCH @match`;
const NEWEST = `ORDER BY f.rowid DESC LIMIT ${RANKED_CANDIDATES}`;
const BEST_FIRST = "ORDER BY score, rowid DESC LIMIT @limit";

const EVERY_PROJECT = `SELECT * FROM (${CANDIDATES} ${NEWEST}) ${BEST_FIRST}`;
/*
 * One project: besides its chats, the match is held to the rowids between the project's first and
 * last message, which FTS5 applies inside the index. Without it a common word in a small project
 * walked every match in the store only to find them in other projects (50 ms for "the"); a project's
 * messages mostly sit together, so this reads little more than the project's own.
 */
const ONE_PROJECT = `
  WITH span AS (
    SELECT min(m.rowid) AS low, max(m.rowid) AS high
    FROM chats c JOIN messages m ON m.chat_id = c.id WHERE c.project_id = @projectId
  )
  SELECT * FROM (
    ${CANDIDATES}
      AND f.rowid >= (SELECT low FROM span) AND f.rowid <= (SELECT high FROM span)
      AND c.project_id = @projectId
    ${NEWEST}
  ) ${BEST_FIRST}`;
const SNIPPET_SOURCE = `SELECT substr(content, 1, ${SNIPPET_SOURCE_CHARS}) AS text FROM messages WHERE rowid = ?`;

export class SearchRepo {
  constructor(private readonly db: Db) {}

  /** The best `limit` messages holding the words, of one project's chats when `projectId` is given. */
  search(words: SearchWords, limit: number, projectId?: string): SearchHit[] {
    const match = ftsMatch(words);
    const rows = (
      projectId === undefined
        ? statement(this.db, EVERY_PROJECT).all({ match, limit })
        : statement(this.db, ONE_PROJECT).all({ match, limit, projectId })
    ) as RankedRow[];
    const source = statement(this.db, SNIPPET_SOURCE);
    return rows.map(({ rowid, messageId, chatId, title, at }) => {
      // Undefined only if another window deleted the chat in between (the store is shared, in WAL mode).
      const found = source.get(rowid) as { text: string } | undefined;
      return { chatId, messageId, title, snippet: snippetOf(found?.text ?? "", words), at };
    });
  }
}
