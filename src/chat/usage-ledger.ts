// The usage ledger: what was spent, from three tables. Chat turns carry their usage on assistant
// messages (and compaction entries); usage whose row was removed (an undone compaction) stays the
// chat's in spent_usage; transcriptions (dictation) have no chat, so they are rows of their own.
// GET /api/usage reads all three, so a transcription's cost counts like a turn's, under its model and day.
import { randomBytes } from "node:crypto";
import type { TranscriptionRoute } from "../gateway/model-slices";
import type { Usage, UsageRow } from "../shared/usage";
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";

export type UsageFilter = { projectId?: string; groupBy: "model" | "day"; from?: string; to?: string };

export class UsageLedger {
  constructor(private readonly db: Db) {}

  recordTranscription(modelId: string, route: TranscriptionRoute, usage: Usage): void {
    statement(
      this.db,
      "INSERT INTO transcriptions (id, model_id, route, usage_json, created_at) VALUES (?, ?, ?, ?, ?)",
    ).run(`t_${randomBytes(9).toString("base64url")}`, modelId, route, JSON.stringify(usage), nowIso());
  }

  /**
   * Token and cost sums over assistant messages and transcriptions, grouped by model or by UTC day.
   * Transcriptions belong to no project: a per-project total leaves them out.
   */
  usage(filter: UsageFilter): UsageRow[] {
    const turns = ["m.usage_json IS NOT NULL"];
    const turnParams: unknown[] = [];
    const heard: string[] = [];
    const heardParams: unknown[] = [];
    if (filter.projectId) (turns.push("c.project_id = ?"), turnParams.push(filter.projectId), heard.push("0"));
    if (filter.from) {
      (turns.push("m.created_at >= ?"), turnParams.push(filter.from));
      (heard.push("t.created_at >= ?"), heardParams.push(filter.from));
    }
    if (filter.to) {
      const to = filter.to.length === 10 ? `${filter.to}T23:59:59.999Z` : filter.to;
      (turns.push("m.created_at <= ?"), turnParams.push(to));
      (heard.push("t.created_at <= ?"), heardParams.push(to));
    }
    const key = filter.groupBy === "model" ? "coalesce(model_id, '(unknown)')" : "substr(created_at, 1, 10)";
    return statement(
      this.db,
      `WITH ledger AS (
         SELECT m.model_id, m.created_at, m.usage_json FROM messages m JOIN chats c ON c.id = m.chat_id WHERE ${turns.join(" AND ")}
         UNION ALL
         SELECT m.model_id, m.created_at, m.usage_json FROM spent_usage m JOIN chats c ON c.id = m.chat_id WHERE ${turns.join(" AND ")}
         UNION ALL
         SELECT t.model_id, t.created_at, t.usage_json FROM transcriptions t ${heard.length > 0 ? `WHERE ${heard.join(" AND ")}` : ""}
       )
       SELECT ${key} AS key,
         sum(json_extract(usage_json, '$.promptTokens')) AS promptTokens,
         sum(json_extract(usage_json, '$.completionTokens')) AS completionTokens,
         -- An unknown cost keeps the group's cost unknown (null) rather than counting as 0.
         CASE WHEN count(json_extract(usage_json, '$.cost')) = count(*)
              THEN coalesce(sum(json_extract(usage_json, '$.cost')), 0) END AS cost,
         count(*) - count(json_extract(usage_json, '$.cost')) AS unknownCostTurns,
         count(*) AS turns
       FROM ledger
       GROUP BY key ORDER BY key`,
    ).all(...turnParams, ...turnParams, ...heardParams) as UsageRow[];
  }
}
