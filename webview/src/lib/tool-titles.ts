// Tool names as people read them. An MCP tool's id `mcp__<server>__<tool>` (contract 6.1) is the
// model's name for it, not the user's: it shows as "<server> › <tool>", with the server's display
// name from settings where it has one. Native tools keep their own short names. Pure.

/** MCP server display names by server id. */
export type ServerNames = ReadonlyMap<string, string>;

const MCP_ID = /^mcp__([a-z0-9-]{1,32})__(.+)$/;

/** The server id and the tool's own name of an MCP tool id; undefined for any other name. */
export function mcpToolParts(name: string): { serverId: string; tool: string } | undefined {
  const match = MCP_ID.exec(name);
  return match ? { serverId: match[1]!, tool: match[2]! } : undefined;
}

/** The display names the settings give MCP servers (`mcpServers[].name`), by id. */
export function serverNames(servers: readonly { id: string; name?: string }[] | undefined): ServerNames {
  return new Map(
    (servers ?? []).flatMap(({ id, name }) => (typeof name === "string" && name.trim() ? [[id, name.trim()]] : [])),
  );
}

/** "calc › sum" for `mcp__calc__sum` (the server's display name when known); any other name as it is. */
export function toolTitle(name: string, names?: ServerNames): string {
  const parts = mcpToolParts(name);
  return parts ? `${names?.get(parts.serverId) ?? parts.serverId} › ${parts.tool}` : name;
}
