import assert from "node:assert/strict";
import { ToolCatalog } from "../../../src/tools/catalog";
import { NATIVE_TOOLS } from "../../../src/tools/native-tools";
import type { CachedTools, McpToolCacheRepo } from "../../../src/tools/mcp/tool-cache-repo";

const cache = (rows: Omit<CachedTools, "cacheKey" | "fetchedAt">[]) =>
  ({
    all: () => rows.map((row, i) => ({ cacheKey: `k${i}`, fetchedAt: "2025-01-01T00:00:00.000Z", ...row })),
  }) as unknown as McpToolCacheRepo;

describe("the tool catalog", () => {
  it("lists the MCP tools each server last reported, named mcp__<server>__<tool>, skipping entries without a name (a null one too)", () => {
    const catalog = new ToolCatalog(
      cache([
        {
          serverId: "calc",
          tools: [
            { name: "add", description: "Adds", inputSchema: { type: "object" } },
            { name: "neg" },
            { description: "no name" },
            { name: 7 },
            null,
          ],
        },
        { serverId: "web", tools: [{ name: "fetch", description: 42 }] },
      ]),
    );
    assert.deepEqual(catalog.mcpTools(), [
      { id: "mcp__calc__add", serverId: "calc", tool: "add", description: "Adds", parameters: { type: "object" } },
      { id: "mcp__calc__neg", serverId: "calc", tool: "neg", description: "", parameters: undefined },
      { id: "mcp__web__fetch", serverId: "web", tool: "fetch", description: "", parameters: undefined },
    ]);
    assert.equal(catalog.isKnownMcpTool("mcp__calc__add"), true);
    assert.equal(catalog.isKnownMcpTool("mcp__calc__sub"), false);
  });

  it("names every tool, the native ones first", () => {
    const catalog = new ToolCatalog(cache([{ serverId: "calc", tools: [{ name: "add" }] }]));
    assert.deepEqual(catalog.allToolNames(), [...NATIVE_TOOLS.map((t) => t.name), "mcp__calc__add"]);
    assert.deepEqual(
      new ToolCatalog(cache([])).allToolNames(),
      NATIVE_TOOLS.map((t) => t.name),
    );
  });
});
