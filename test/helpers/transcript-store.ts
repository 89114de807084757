// Big chats for the transcript bench and its e2e test, written straight into a running server's SQLite store (one
// transaction each, beside the server's own connection: the store is in WAL mode): a chat's messages
// (mixed markdown, and tool cards: an assistant step with `meta.toolCalls` and its `tool` results),
// and thousands of chats in a project. The chats themselves are created through the API first.
import { randomBytes } from "node:crypto";
import { openSqlite } from "../../src/platform/sqlite-binding";
import { markdownBlock } from "../fake-gateway/long-markdown";

const id = (prefix: string) => `${prefix}_${randomBytes(9).toString("base64url")}`;

type Row = {
  role: "user" | "assistant" | "tool";
  content: string;
  model_id: string | null;
  usage_json: string | null;
  meta_json: string | null;
};

const usage = (k: number) =>
  JSON.stringify({
    promptTokens: 1000 + k,
    completionTokens: 200,
    totalTokens: 1200 + k,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    cost: 0.0012,
    costSource: "gateway",
  });

/** The text the last message of a generated chat ends with: on screen once that message is. */
export const lastMessageMark = (tag: string) => `This is the last message of chat ${tag}.`;

/**
 * Message `k` of a chat of turns of seven: a question; an answer in markdown; a question; a step that
 * calls two tools (file, shell); their two results; an answer with code, a table or a list.
 */
function messageAt(k: number, model: string): Row {
  const turn = Math.floor(k / 7);
  const turnId = `turn_${turn}`;
  const plain = { model_id: null, usage_json: null, meta_json: null };
  const callIds = [`call_${turn}_0`, `call_${turn}_1`];
  switch (k % 7) {
    case 0:
    case 2:
      return { role: "user", content: `Question ${k}: how does part ${turn} of the store work, and why?`, ...plain };
    case 1:
      return {
        role: "assistant",
        content: `${markdownBlock(k * 3)}\n\n${markdownBlock(k * 3 + 1)}`,
        model_id: model,
        usage_json: usage(k),
        meta_json: JSON.stringify({ turnId, finishReason: "stop" }),
      };
    case 3:
      return {
        role: "assistant",
        content: "Let me look at the file and run the tests.",
        model_id: model,
        usage_json: null,
        meta_json: JSON.stringify({
          turnId,
          finishReason: "tool_calls",
          toolCalls: [
            {
              id: callIds[0],
              name: "file",
              arguments: JSON.stringify({ action: "read", path: `src/part-${turn}.ts` }),
            },
            { id: callIds[1], name: "shell", arguments: JSON.stringify({ cmd: `npm test -- part-${turn}` }) },
          ],
        }),
      };
    case 4:
      return {
        role: "tool",
        content: `export const part${turn} = {\n  name: "part ${turn}",\n  size: ${turn * 7},\n};\n// ${"line of the file ".repeat(12)}`,
        model_id: null,
        usage_json: null,
        meta_json: JSON.stringify({
          turnId,
          callId: callIds[0],
          name: "file",
          ok: true,
          arguments: { action: "read", path: `src/part-${turn}.ts` },
        }),
      };
    case 5:
      return {
        role: "tool",
        content: JSON.stringify({ exitCode: 0, stdout: `  ✓ part ${turn} (3 ms)\n\n  12 passing\n`, stderr: "" }),
        model_id: null,
        usage_json: null,
        meta_json: JSON.stringify({
          turnId,
          callId: callIds[1],
          name: "shell",
          ok: true,
          arguments: { cmd: `npm test -- part-${turn}` },
        }),
      };
    default:
      return {
        role: "assistant",
        content: `${markdownBlock(k * 3 + 2)}\n\n${markdownBlock(turn * 6 + 3)}`,
        model_id: model,
        usage_json: usage(k),
        meta_json: JSON.stringify({ turnId, finishReason: "stop" }),
      };
  }
}

/**
 * Appends `count` messages to a chat (created through the API, no messages yet); the last two are a
 * question and an answer ending with `lastMessageMark(tag)`. Returns the stored characters.
 */
export function fillChat(storeFile: string, chatId: string, count: number, model: string, tag: string): number {
  const db = openSqlite(storeFile);
  let chars = 0;
  try {
    db.pragma("busy_timeout = 5000");
    const insert = db.prepare(
      `INSERT INTO messages (id, chat_id, seq, role, content, status, model_id, usage_json, meta_json, parent_id, created_at)
         VALUES (?, ?, ?, ?, ?, 'complete', ?, ?, ?, ?, ?)`,
    );
    // One straight branch, ending at the last message: the chat's leaf.
    let parent: string | null = null;
    const start = Date.now() - count * 1000;
    db.transaction(() => {
      for (let k = 0; k < count; k++) {
        let row = messageAt(k, model);
        if (k === count - 2)
          row = {
            role: "user",
            content: `Last question of chat ${tag}?`,
            model_id: null,
            usage_json: null,
            meta_json: null,
          };
        if (k === count - 1)
          row = {
            role: "assistant",
            content: `${markdownBlock(1)}\n\n${lastMessageMark(tag)}`,
            model_id: model,
            usage_json: usage(k),
            meta_json: JSON.stringify({ turnId: "turn_last", finishReason: "stop" }),
          };
        chars += row.content.length;
        const at = new Date(start + k * 1000).toISOString();
        const messageId = id("m");
        insert.run(
          messageId,
          chatId,
          k + 1,
          row.role,
          row.content,
          row.model_id,
          row.usage_json,
          row.meta_json,
          parent,
          at,
        );
        parent = messageId;
      }
      db.prepare("UPDATE chats SET updated_at = ?, leaf_id = ? WHERE id = ?").run(
        new Date().toISOString(),
        parent,
        chatId,
      );
    }).immediate();
  } finally {
    db.close();
  }
  return chars;
}

/** Adds `count` chats (no messages) to a project, each updated a second after the one before. */
export function addChats(storeFile: string, projectId: string, count: number, model: string): void {
  const db = openSqlite(storeFile);
  try {
    db.pragma("busy_timeout = 5000");
    const insert = db.prepare(
      `INSERT INTO chats (id, project_id, title, prompt_id, card_prompt_id, model_id, agent, tools_json, agent_files, skills, created_at, updated_at)
         VALUES (?, ?, ?, NULL, NULL, ?, NULL, NULL, NULL, NULL, ?, ?)`,
    );
    const start = Date.now() - count * 1000;
    db.transaction(() => {
      for (let k = 0; k < count; k++) {
        const at = new Date(start + k * 1000).toISOString();
        insert.run(id("c"), projectId, `Chat ${k}: how part ${k} of the store works`, model, at, at);
      }
    }).immediate();
  } finally {
    db.close();
  }
}
