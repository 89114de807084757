// The authorization gate of a tool: `off` (never offered, never run), `ask` (the user approves each
// call) or `allow`, as the settings say (project over app), else the tool's default. Pure.
import type { ToolGate } from "../shared/settings";
import { NATIVE_TOOLS } from "./native-tools";

/** The gate of a tool: the project's (or app's) setting, else the tool's default (`ask` for MCP tools). */
export function toolGate(name: string, gates: Record<string, ToolGate> | undefined): ToolGate {
  return (gates && Object.hasOwn(gates, name) ? gates[name] : undefined) ?? NATIVE_TOOLS.find((t) => t.name === name)?.defaultGate ?? "ask";
}

/**
 * The gates in force: `toolGates` (the contract's key) over `tools` (its older name), each already
 * resolved project over app.
 */
export function gatesOf(settings: { toolGates?: Record<string, ToolGate>; tools?: Record<string, ToolGate> }): Record<string, ToolGate> {
  return { ...settings.tools, ...settings.toolGates };
}

/** Whether a call must wait for the user: `ask`, and for `file` only when it writes. */
export function needsApproval(name: string, gate: ToolGate, args: unknown): boolean {
  if (gate !== "ask") return false;
  if (name !== "file") return true;
  const action = (args as { action?: unknown } | undefined)?.action;
  return action === "write" || action === "edit";
}
