// The `tools` field of an upstream request: the turn's effective tool set as OpenAI function tools.
// `off` tools were already removed by the effective-chat merge; tools that cannot run yet are left out.
import type { ToolGate } from "../shared/settings";
import { toolGate } from "./gate";
import { grantedTool, grantedToolName, READ_ONLY_FILE } from "./native-tools";
import { withoutMetaSchema } from "./mcp/schema-validator";

export type UpstreamTool = { type: "function"; function: { name: string; description: string; parameters: unknown } };

/** An MCP tool as the turn knows it: its id and what its server says about it. */
export type OfferableMcpTool = { id: string; description: string; parameters?: unknown };

/** `subagents`: whether `subagent` can run here (not inside a subagent: no nesting). */
export function offeredTools(
  names: readonly string[],
  gates: Record<string, ToolGate>,
  mcpTools: readonly OfferableMcpTool[] = [],
  subagents = false,
): UpstreamTool[] {
  const mcp = new Map(mcpTools.map((tool) => [tool.id, tool]));
  return names.flatMap((name) => {
    if ((name === "subagent" && !subagents) || toolGate(grantedToolName(name), gates) === "off") return [];
    // `file` itself grants all that `file:read` does: the model gets one `file`.
    if (name === READ_ONLY_FILE && names.includes("file")) return [];
    const tool = grantedTool(name);
    if (tool)
      return [
        {
          type: "function" as const,
          function: { name: tool.name, description: tool.description, parameters: tool.parameters },
        },
      ];
    const external = mcp.get(name);
    if (!external) return [];
    const parameters =
      typeof external.parameters === "object" && external.parameters !== null
        ? withoutMetaSchema(external.parameters)
        : { type: "object", properties: {} };
    return [
      { type: "function" as const, function: { name, description: external.description.slice(0, 1024), parameters } },
    ];
  });
}
