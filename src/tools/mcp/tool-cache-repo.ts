// Table mcp_tool_cache: the last tool list each MCP server reported, so catalogs load without a round
// trip. A row's `cacheKey` says which server it was: its scope (app, or the project that defines it)
// and a fingerprint of its configuration; `serverId` is the id the server's tools are named by.
import type { Db } from "../../platform/db";
import { statement } from "../../platform/statements";
import { nowIso } from "../../platform/clock";

export type CachedTools = { cacheKey: string; serverId: string; tools: unknown[]; fetchedAt: string };

export class McpToolCacheRepo {
  constructor(private readonly db: Db) {}

  put(cacheKey: string, serverId: string, tools: unknown[]): void {
    statement(
      this.db,
      `INSERT INTO mcp_tool_cache (cache_key, server_id, tools_json, fetched_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(cache_key) DO UPDATE SET server_id = excluded.server_id, tools_json = excluded.tools_json, fetched_at = excluded.fetched_at`,
    ).run(cacheKey, serverId, JSON.stringify(tools), nowIso());
  }

  get(cacheKey: string): CachedTools | undefined {
    const row = statement(
      this.db,
      "SELECT cache_key AS cacheKey, server_id AS serverId, tools_json AS toolsJson, fetched_at AS fetchedAt FROM mcp_tool_cache WHERE cache_key = ?",
    ).get(cacheKey) as { cacheKey: string; serverId: string; toolsJson: string; fetchedAt: string } | undefined;
    return row && toCached(row);
  }

  all(): CachedTools[] {
    const rows = statement(
      this.db,
      "SELECT cache_key AS cacheKey, server_id AS serverId, tools_json AS toolsJson, fetched_at AS fetchedAt FROM mcp_tool_cache ORDER BY cache_key",
    ).all() as {
      cacheKey: string;
      serverId: string;
      toolsJson: string;
      fetchedAt: string;
    }[];
    return rows.map(toCached);
  }

  /**
   * Keeps the `keep` newest rows whose key starts with `prefix` (one server's configurations): an
   * edited server's earlier tool lists stay for a while (it may be edited back), but never pile up.
   */
  prune(prefix: string, keep: number): void {
    statement(
      this.db,
      `DELETE FROM mcp_tool_cache WHERE substr(cache_key, 1, length(@prefix)) = @prefix AND cache_key NOT IN (
         SELECT cache_key FROM mcp_tool_cache WHERE substr(cache_key, 1, length(@prefix)) = @prefix ORDER BY fetched_at DESC, rowid DESC LIMIT @keep)`,
    ).run({ prefix, keep });
  }

  delete(cacheKey: string): void {
    statement(this.db, "DELETE FROM mcp_tool_cache WHERE cache_key = ?").run(cacheKey);
  }
}

function toCached({
  toolsJson,
  ...row
}: {
  cacheKey: string;
  serverId: string;
  toolsJson: string;
  fetchedAt: string;
}): CachedTools {
  return { ...row, tools: JSON.parse(toolsJson) as unknown[] };
}
