// Table mcp_tool_cache: the last tool list each MCP server reported, so catalogs load without a round trip.
import type { Db } from "./db";
import { statement } from "./statements";
import { nowIso } from "./clock";

export type CachedTools = { serverId: string; tools: unknown[]; fetchedAt: string };

export class McpToolCacheRepo {
  constructor(private readonly db: Db) {}

  put(serverId: string, tools: unknown[]): void {
    statement(this.db, 
        `INSERT INTO mcp_tool_cache (server_id, tools_json, fetched_at) VALUES (?, ?, ?)
         ON CONFLICT(server_id) DO UPDATE SET tools_json = excluded.tools_json, fetched_at = excluded.fetched_at`,
      )
      .run(serverId, JSON.stringify(tools), nowIso());
  }

  all(): CachedTools[] {
    const rows = statement(this.db, "SELECT server_id AS serverId, tools_json AS toolsJson, fetched_at AS fetchedAt FROM mcp_tool_cache ORDER BY server_id")
      .all() as { serverId: string; toolsJson: string; fetchedAt: string }[];
    return rows.map(({ toolsJson, ...row }) => ({ ...row, tools: JSON.parse(toolsJson) as unknown[] }));
  }

  delete(serverId: string): void {
    statement(this.db, "DELETE FROM mcp_tool_cache WHERE server_id = ?").run(serverId);
  }
}
