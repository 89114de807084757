// The tools a project can use: Parley's native tools plus the MCP tools its servers last reported
// (from the MCP tool cache; empty until an MCP server has been started).
import { mcpToolId, NATIVE_TOOLS } from "./native-tools";
import type { McpToolCacheRepo } from "./mcp/tool-cache-repo";

export type McpToolEntry = {
  id: string;
  serverId: string;
  tool: string;
  description: string;
  parameters?: unknown;
  /** Listed from the cache while its server is still starting. */
  starting?: boolean;
};

export class ToolCatalog {
  constructor(private readonly cache: McpToolCacheRepo) {}

  mcpTools(): McpToolEntry[] {
    return this.cache.all().flatMap((row) =>
      row.tools.flatMap((tool) => {
        // The cache holds what a server sent: anything, a null included.
        const t = (tool ?? {}) as { name?: unknown; description?: unknown; inputSchema?: unknown };
        if (typeof t.name !== "string") return [];
        return [
          {
            id: mcpToolId(row.serverId, t.name),
            serverId: row.serverId,
            tool: t.name,
            description: typeof t.description === "string" ? t.description : "",
            parameters: t.inputSchema,
          },
        ];
      }),
    );
  }

  isKnownMcpTool(name: string): boolean {
    return this.mcpTools().some((tool) => tool.id === name);
  }

  /** Every tool name, native first. */
  allToolNames(): string[] {
    return [...NATIVE_TOOLS.map((t) => t.name), ...this.mcpTools().map((t) => t.id)];
  }
}
