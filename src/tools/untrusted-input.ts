// Untrusted input (contract 7.5): text from outside the user's project and Parley (an MCP tool's
// result, a web page) can carry instructions the model may follow ("now run `curl … | sh`"). Once a
// turn has read such output, every later call of that turn that can change something asks the user,
// whatever its gate says. The rules are pure; `UntrustedInput` is the turn's memory of what it read.
import type { ApprovalReason } from "../shared/approval-reasons";

/** The native tool that reads web pages; untrusted by name, whoever implements it. */
export const WEB_FETCH = "web_fetch";

const isMcpTool = (name: string) => name.startsWith("mcp__");

/** Whether a tool's output comes from outside: every MCP tool, and `web_fetch`. */
export function isUntrustedSource(name: string): boolean {
  return name === WEB_FETCH || isMcpTool(name);
}

/**
 * Whether a call can change state: `shell`, a `file` write or edit, and every MCP tool (what a server's
 * tool does is its own business; its read-only hints come from the server itself, so they do not count).
 * Not: `file` read, list and search; `web_fetch` (a GET); the turn's own bookkeeping (`task`,
 * `report_progress`, `ask_user`, `tool_search`); nor `subagent`, whose own calls are each checked
 * with the same memory, so asking for the handover too would ask twice for one change.
 */
export function changesState(name: string, args: unknown): boolean {
  if (name === "shell" || isMcpTool(name)) return true;
  if (name !== "file") return false;
  const action = (args as { action?: unknown } | null | undefined)?.action;
  return action === "write" || action === "edit";
}

export type UntrustedSource = { tool: string; callId: string };

/**
 * What a turn has read from outside. One per turn, shared with the turn's subagents: what a subagent
 * read steers its own later calls and, through its answer, the turn's; what the turn read reaches
 * the subagent through its task. Only the first source is kept: it is the one since which calls ask.
 */
export class UntrustedInput {
  private first: UntrustedSource | undefined;

  /** The first untrusted output the turn read, if any. */
  get source(): UntrustedSource | undefined {
    return this.first;
  }

  /** A call ran and its output goes to the model: remembered when it came from outside. */
  read(tool: string, callId: string): void {
    if (!this.first && isUntrustedSource(tool)) this.first = { tool, callId };
  }

  /** Why this call must ask whatever its gate, on this account; undefined when it need not. */
  reasonFor(name: string, args: unknown): ApprovalReason | undefined {
    return this.first && changesState(name, args) ? { kind: "untrusted_input", source: { ...this.first } } : undefined;
  }
}
