// The `tools` field of an upstream request: the turn's effective tool set as OpenAI function tools.
// `off` tools were already removed by the effective-chat merge; tools that cannot run yet are left out.
import type { ToolGate } from "../shared/settings";
import { toolGate } from "./gate";
import { nativeTool } from "./native-tools";
import { NOT_YET_RUNNABLE } from "./tool-runner";

export type UpstreamTool = { type: "function"; function: { name: string; description: string; parameters: unknown } };

export function offeredTools(names: readonly string[], gates: Record<string, ToolGate>): UpstreamTool[] {
  return names.flatMap((name) => {
    const tool = nativeTool(name);
    if (!tool || NOT_YET_RUNNABLE.has(name) || toolGate(name, gates) === "off") return [];
    return [{ type: "function" as const, function: { name, description: tool.description, parameters: tool.parameters } }];
  });
}
