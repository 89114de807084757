// Numbered schema migrations. Entry N brings a database from user_version N to N+1.
// Never edit a shipped entry: append a new one.

export const MIGRATIONS: readonly string[] = [
  /* 1: the foundation tables */ `
  CREATE TABLE app_kv (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    dir TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  -- Settings of projects whose "Store settings in app DB" option is on.
  CREATE TABLE project_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    json TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE mcp_tool_cache (
    server_id TEXT PRIMARY KEY,
    tools_json TEXT NOT NULL,
    fetched_at TEXT NOT NULL
  );
  CREATE TABLE recent_models (
    provider_id TEXT NOT NULL,
    model_id TEXT NOT NULL,
    used_at TEXT NOT NULL,
    PRIMARY KEY (provider_id, model_id)
  );
  CREATE TABLE prompts (
    id TEXT PRIMARY KEY,
    json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE chats (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    prompt_id TEXT,
    card_prompt_id TEXT,
    model_id TEXT,
    agent TEXT,
    tools_json TEXT,
    agent_files INTEGER,
    skills INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX chats_by_project ON chats(project_id, updated_at);
  CREATE INDEX chats_by_prompt ON chats(prompt_id);
  CREATE TABLE messages (
    id TEXT PRIMARY KEY,
    chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    status TEXT NOT NULL,
    model_id TEXT,
    usage_json TEXT,
    meta_json TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (chat_id, seq)
  );
  -- Browser sessions created by the token link; only a hash of the cookie value is kept.
  CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    user_agent TEXT NOT NULL
  );
  `,
  /* 2: the last SSE event id sent for each chat, so ids stay monotonic across turns and restarts */ `
  ALTER TABLE chats ADD COLUMN last_event_id INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX messages_by_created ON messages(created_at);
  `,
  /* 3: checkpoints: what each file a turn's tools wrote held before, so the turn can be reverted */ `
  CREATE TABLE checkpoints (
    turn_id TEXT NOT NULL,
    chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    -- NULL: the turn created the file.
    before BLOB,
    after_sha256 TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (turn_id, path)
  );
  CREATE INDEX checkpoints_by_chat ON checkpoints(chat_id);
  `,
  /* 4: passkeys (WebAuthn credentials) for the browser UI's optional sign-in */ `
  CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    public_key BLOB NOT NULL,
    counter INTEGER NOT NULL,
    transports TEXT NOT NULL,
    rp_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
  );
  `,
  /*
   * 5: the MCP tool cache keyed by where a server runs and how it is configured (`cache_key`), not by
   * its id alone: two projects with different servers under one id no longer share a tool list, and
   * an edited server never shows the old command's tools. The old rows cannot be attributed, so they
   * go; each server's list comes back when it next starts.
   */ `
  DROP TABLE mcp_tool_cache;
  CREATE TABLE mcp_tool_cache (
    cache_key TEXT PRIMARY KEY,
    server_id TEXT NOT NULL,
    tools_json TEXT NOT NULL,
    fetched_at TEXT NOT NULL
  );
  `,
  /* 6: transcriptions (dictation) in the usage ledger beside chat turns; no project: dictation is app-wide */ `
  CREATE TABLE transcriptions (
    id TEXT PRIMARY KEY,
    model_id TEXT NOT NULL,
    route TEXT NOT NULL,
    usage_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX transcriptions_by_created ON transcriptions(created_at);
  `,
  /* 7: one row per upstream request of a chat (contract 7.3): a turn's steps, subagents, compactions */ `
  CREATE TABLE upstream_requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    turn_id TEXT NOT NULL,
    step INTEGER NOT NULL,
    cause TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    cache_write_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cost REAL,
    cost_source TEXT NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX upstream_requests_by_chat ON upstream_requests(chat_id, id);
  `,
  /*
   * 8: conversations (contract 7.4). Messages form a tree: each row names its parent (the row before it
   * on its branch), and a chat shows the path ending at its leaf. Existing chats become one straight
   * branch. Full-text search over message text and tool output is an external-content FTS5 index kept
   * by triggers; it is keyed by the messages' implicit rowid, so a VACUUM (which may renumber rowids of
   * a table without an INTEGER PRIMARY KEY) must be followed by the index's 'rebuild'.
   */ `
  ALTER TABLE messages ADD COLUMN parent_id TEXT;
  ALTER TABLE chats ADD COLUMN leaf_id TEXT;
  UPDATE messages SET parent_id = (
    SELECT p.id FROM messages p WHERE p.chat_id = messages.chat_id AND p.seq < messages.seq ORDER BY p.seq DESC LIMIT 1
  );
  UPDATE chats SET leaf_id = (SELECT m.id FROM messages m WHERE m.chat_id = chats.id ORDER BY m.seq DESC LIMIT 1);
  CREATE INDEX messages_by_parent ON messages(chat_id, parent_id, seq);
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, content = 'messages', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, new.content);
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    INSERT INTO messages_fts(messages_fts, rowid, content) VALUES ('delete', old.rowid, old.content);
    INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, new.content);
  END;
  `,
  /*
   * 9: the search index reads a tool output as the text it holds. Outputs are stored as JSON, where a
   * line break is the two characters \n, so "\nexpected" was indexed as the word "nexpected" and a word
   * starting an output line could not be found. The index is now contentless (search reads the text
   * from messages for its snippets) and is given tool outputs with their escapes read as the spaces
   * and quotes they stand for. Still keyed by the messages' rowid (see 8).
   */ `
  DROP TRIGGER messages_fts_insert;
  DROP TRIGGER messages_fts_delete;
  DROP TRIGGER messages_fts_update;
  DROP TABLE messages_fts;
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    content, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO messages_fts(rowid, content) SELECT rowid, ${searchText("")} FROM messages WHERE content <> '';
  -- An empty row (the answer a turn opens before its first token) is not indexed until it has text.
  CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.content <> '' BEGIN
    INSERT INTO messages_fts(rowid, content) VALUES (new.rowid, ${searchText("new.")});
  END;
  CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.content <> '' BEGIN
    DELETE FROM messages_fts WHERE rowid = old.rowid;
  END;
  CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages BEGIN
    DELETE FROM messages_fts WHERE rowid = old.rowid AND old.content <> '';
    INSERT INTO messages_fts(rowid, content) SELECT new.rowid, ${searchText("new.")} WHERE new.content <> '';
  END;
  `,
  /*
   * 10: worktree chats (contract 7.6). A chat may run in a git worktree of its own: its branch on the
   * chat (every chat response carries it), the rest in a table of their own. A discarded worktree keeps
   * its row (state 'discarded'), so the chat says why it cannot run tools.
   */ `
  ALTER TABLE chats ADD COLUMN worktree_branch TEXT;
  CREATE TABLE worktrees (
    chat_id TEXT PRIMARY KEY REFERENCES chats(id) ON DELETE CASCADE,
    repo_dir TEXT NOT NULL,
    git_dir TEXT NOT NULL,
    path TEXT NOT NULL,
    subdir TEXT NOT NULL,
    branch TEXT NOT NULL,
    base TEXT NOT NULL,
    base_commit TEXT NOT NULL,
    started_dirty INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'ready',
    created_at TEXT NOT NULL
  );
  `,
  /*
   * 11: usage that outlives its row. Undoing a compaction deletes its entry, but the summary request
   * was paid for: its usage moves here, still the chat's, and GET /api/usage and the chat's totals
   * count it as before. It goes with its chat, as the chat's other usage does.
   */ `
  CREATE TABLE spent_usage (
    id TEXT PRIMARY KEY,
    chat_id TEXT NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
    model_id TEXT,
    usage_json TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX spent_usage_chat ON spent_usage(chat_id);
  `,
];

/**
 * The text a message is found by (migration 9): its content, and for a tool output (JSON) with the
 * escapes of line breaks, tabs and quotes read as what they stand for. SQLite's string literals have
 * no escapes: the SQL '\n' (written '\\n' in this template) is a backslash and an n.
 */
function searchText(row: "" | "new."): string {
  return `CASE WHEN ${row}role = 'tool'
    THEN replace(replace(replace(replace(${row}content, '\\r', ' '), '\\n', ' '), '\\t', ' '), '\\"', '"')
    ELSE ${row}content END`;
}
