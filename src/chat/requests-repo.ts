// Table upstream_requests: the request ledger of each chat (contract 7.3), one row per upstream
// request with its cause, tokens (cached and written to the cache included) and cost.
import type { Db } from "../platform/db";
import { statement } from "../platform/statements";
import { nowIso } from "../platform/clock";
import type { UpstreamRequest } from "../shared/requests";
import type { Usage } from "../shared/usage";

export class RequestsRepo {
  constructor(private readonly db: Db) {}

  record(chatId: string, request: Pick<UpstreamRequest, "turnId" | "step" | "cause" | "model">, usage: Usage): void {
    statement(
      this.db,
      `INSERT INTO upstream_requests (chat_id, turn_id, step, cause, model, prompt_tokens, cached_tokens,
       cache_write_tokens, completion_tokens, cost, cost_source, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      chatId,
      request.turnId,
      request.step,
      request.cause,
      request.model,
      usage.promptTokens,
      usage.cachedTokens,
      usage.cacheWriteTokens ?? 0,
      usage.completionTokens,
      usage.cost,
      usage.costSource,
      nowIso(),
    );
  }

  forChat(chatId: string): UpstreamRequest[] {
    return statement(
      this.db,
      `SELECT turn_id AS turnId, step, cause, model, prompt_tokens AS promptTokens, cached_tokens AS cachedTokens,
       cache_write_tokens AS cacheWriteTokens, completion_tokens AS completionTokens, cost, cost_source AS costSource, at
       FROM upstream_requests WHERE chat_id = ? ORDER BY id`,
    ).all(chatId) as UpstreamRequest[];
  }
}
