// The tool budget (contract 7.3): when a turn's tool definitions would take more than
// `chat.toolBudget` of the window, its MCP tools are not offered one by one. The model gets the
// native tool `tool_search {query}` instead, which returns the matching tools' schemas and adds them
// to the offered set for the rest of the turn. Pure: the caller counts, and owns the offered list.
import { z } from "zod";
import type { UpstreamTool } from "./offered-tools";

export const TOOL_SEARCH = "tool_search";
export const DEFAULT_TOOL_BUDGET = 0.1;
/** Tools one search returns at most. */
export const TOOL_SEARCH_LIMIT = 8;

export const toolSearchArgsSchema = z.object({
  query: z.string().min(1).max(500).describe("What the tool should do, in a few words (or a tool's name)"),
});

/** A tool's id split into words: `mcp__github__create_issue` → "github create issue". */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1 && word !== "mcp");
}

/** The deferred tools that fit the query, best first: a word in the name counts three times one in the description. */
export function searchTools(tools: readonly UpstreamTool[], query: string, limit = TOOL_SEARCH_LIMIT): UpstreamTool[] {
  const exact = tools.find((tool) => tool.function.name === query.trim());
  if (exact) return [exact];
  const wanted = new Set(words(query));
  const scored = tools.map((tool) => {
    const name = new Set(words(tool.function.name));
    const description = new Set(words(tool.function.description));
    let score = 0;
    for (const word of wanted) {
      if (name.has(word)) score += 3;
      else if ([...name].some((part) => part.startsWith(word) || word.startsWith(part))) score += 2;
      if (description.has(word)) score += 1;
    }
    return { tool, score };
  });
  return scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.function.name.localeCompare(b.tool.function.name))
    .slice(0, limit)
    .map((entry) => entry.tool);
}

/** `tool_search` as offered: it names the servers whose tools it searches, so the model knows to ask. */
export function toolSearchDefinition(deferred: readonly UpstreamTool[]): UpstreamTool {
  const servers = new Map<string, number>();
  for (const tool of deferred) {
    const server = /^mcp__(.+?)__/.exec(tool.function.name)?.[1] ?? "other";
    servers.set(server, (servers.get(server) ?? 0) + 1);
  }
  const listed = [...servers].map(([server, count]) => `${server} (${count})`).join(", ");
  const { $schema: _dialect, ...parameters } = z.toJSONSchema(toolSearchArgsSchema) as Record<string, unknown>;
  return {
    type: "function",
    function: {
      name: TOOL_SEARCH,
      description:
        `Find tools of the connected MCP servers by what they do: ${listed}. ` +
        "The tools found are returned with their parameters and can be called from the next step on.",
      parameters,
    },
  };
}

/**
 * The tools a turn offers under the budget: all of them while they fit (`toolTokens` is what they
 * count), else the non-MCP ones plus `tool_search`, with the MCP ones held back for it to find.
 */
export function budgetTools(
  tools: readonly UpstreamTool[],
  toolTokens: number,
  window: number,
  budget: number,
): { offered: UpstreamTool[]; deferred: UpstreamTool[] } {
  const deferred = tools.filter((tool) => tool.function.name.startsWith("mcp__"));
  if (deferred.length === 0 || toolTokens <= budget * window) return { offered: [...tools], deferred: [] };
  const kept = tools.filter((tool) => !tool.function.name.startsWith("mcp__"));
  return { offered: [...kept, toolSearchDefinition(deferred)], deferred };
}

/**
 * Runs a `tool_search` call: the matches (not yet offered) join `offered` for the rest of the turn;
 * the answer lists them with their parameters.
 */
export function runToolSearch(
  args: z.infer<typeof toolSearchArgsSchema>,
  deferred: readonly UpstreamTool[],
  offered: UpstreamTool[],
): { found: { name: string; description: string; parameters: unknown }[]; note?: string } {
  const found = searchTools(deferred, args.query);
  const names = new Set(offered.map((tool) => tool.function.name));
  for (const tool of found) if (!names.has(tool.function.name)) offered.push(tool);
  if (found.length === 0)
    return { found: [], note: "no tool fits; try other words (a server's name lists all of its tools)" };
  return { found: found.map((tool) => ({ ...tool.function })) };
}
