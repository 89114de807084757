// The authorization gate of a tool: `off` (never offered, never run), `ask` (the user approves each
// call) or `allow`, as the settings say (project over app), else the tool's default. Pure.
import type { ToolGate } from "../shared/settings";
import { NATIVE_TOOLS } from "./native-tools";

/** The gate of a tool: the project's (or app's) setting, else the tool's default (`ask` for MCP tools). */
export function toolGate(name: string, gates: Record<string, ToolGate> | undefined): ToolGate {
  return (
    (gates && Object.hasOwn(gates, name) ? gates[name] : undefined) ??
    NATIVE_TOOLS.find((t) => t.name === name)?.defaultGate ??
    "ask"
  );
}

/**
 * The gates in force: `toolGates` (the contract's key) over `tools` (its older name), each already
 * resolved project over app.
 */
export function gatesOf(settings: {
  toolGates?: Record<string, ToolGate>;
  tools?: Record<string, ToolGate>;
}): Record<string, ToolGate> {
  return { ...settings.tools, ...settings.toolGates };
}

const STRICTNESS: Record<ToolGate, number> = { off: 0, ask: 1, allow: 2 };

/**
 * The gates of a project the user has not trusted (contract 7.1): `user` are the gates of the user's
 * own layers (defaults < app), `project` the project layer's. Each project gate counts only where it
 * is stricter than the user's, so a repository can switch a tool off or make it ask, never allow it.
 */
export function untrustedGates(
  user: Record<string, ToolGate>,
  project: Record<string, ToolGate>,
): Record<string, ToolGate> {
  // Built from entries, never by assignment: a tool named `__proto__` stays a plain key.
  const stricter = Object.entries(project).filter(
    ([name, gate]) => STRICTNESS[gate] < STRICTNESS[toolGate(name, user)],
  );
  return { ...user, ...Object.fromEntries(stricter) };
}

/** Whether a call must wait for the user: `ask`, and for `file` only when it writes. */
export function needsApproval(name: string, gate: ToolGate, args: unknown): boolean {
  if (gate !== "ask") return false;
  if (name !== "file") return true;
  const action = (args as { action?: unknown } | undefined)?.action;
  return action === "write" || action === "edit";
}
