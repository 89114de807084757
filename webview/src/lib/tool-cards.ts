// What a tool card shows, worked out from a call's name, arguments and result: its accessible name,
// the one-line summary, the status, the output as text and the diff as lines. Pure, so it is the
// same for a live turn and for a transcript read back after a reload.
import type { StreamEventData } from "$shared/stream-events";
import type { ApprovalReason } from "$shared/approval-reasons";
import type { AlwaysAllowMode } from "./project-trust";
import { toolTitle, type ServerNames } from "./tool-titles";

export type ToolStatus = "running" | "waiting" | "done" | "failed" | "denied" | "stopped" | "interrupted";

/** What the card waits for from the user, if anything; `reasons`: why it asks even when allowed. */
export type ToolAsk =
  { kind: "approval"; reasons?: ApprovalReason[] } | { kind: "question"; question: string; choices?: string[] };

export type ToolCardData = {
  callId: string;
  name: string;
  args: unknown;
  status: ToolStatus;
  output?: unknown;
  /** Unified diff of the files a write or edit changed. */
  diff?: string;
  turnId?: string;
  parentCallId?: string;
  ask?: ToolAsk;
  /** An approval or answer the server refused (the turn moved on, say). */
  askError?: string;
};

/** The output the server gives a call the user denied (contract 6.2). */
export const DENIED_OUTPUT = "The user denied this call.";
/** The output of a call whose turn the user stopped (Stop, or a cancel from another UI). */
export const CANCELLED_OUTPUT = "the turn was cancelled";

export const STATUS_LABELS: Record<ToolStatus, string> = {
  running: "running",
  waiting: "waiting for you",
  done: "done",
  failed: "failed",
  denied: "denied",
  stopped: "stopped",
  interrupted: "interrupted",
};

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const str = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/** Arguments as the model sent them (a JSON string), parsed; the raw string when it is not JSON. */
export function parseArguments(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** The status a finished call shows. */
export function resultStatus(ok: boolean, output: unknown): ToolStatus {
  if (ok) return "done";
  if (output === DENIED_OUTPUT) return "denied";
  return output === CANCELLED_OUTPUT ? "stopped" : "failed";
}

/**
 * The card's accessible name: the tool as people read it ("calc › sum" for `mcp__calc__sum`), and for
 * some tools their subject ("file notes.txt", "subagent reviewer").
 */
export function cardName(name: string, args: unknown, names?: ServerNames): string {
  const a = record(args);
  if (name === "file" && str(a.path)) return `file ${a.path}`;
  if (name === "subagent" && str(a.agent)) return `subagent ${a.agent}`;
  if (name === "web_fetch" && str(a.url)) return `web_fetch ${urlHost(a.url as string)}`;
  return toolTitle(name, names);
}

/** The host a URL names, for a card's name; the text itself when it is no URL. */
function urlHost(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** One item of the plan the `task` tool keeps (contract 6.1). */
export type TaskItem = StreamEventData<"task.update">["items"][number];
const TASK_STATUSES: ReadonlySet<unknown> = new Set(["pending", "in_progress", "done"]);

/** The plan a `task` call sent (its items that have a title and a known status). */
export function taskItems(args: unknown): TaskItem[] {
  const items = record(args).items;
  if (!Array.isArray(items)) return [];
  return items.flatMap((item) => {
    const { title, status } = record(item);
    return typeof title === "string" && TASK_STATUSES.has(status) ? [{ title, status } as TaskItem] : [];
  });
}

/** How far a plan has come: "1 of 3 done". */
export function taskProgress(items: readonly TaskItem[]): string {
  return `${items.filter((item) => item.status === "done").length} of ${items.length} done`;
}

/** A short summary of the arguments for the collapsed line: the command, the path, the question… */
export function argumentSummary(name: string, args: unknown): string {
  const a = record(args);
  switch (name) {
    case "shell":
      return str(a.cmd) ?? "";
    case "file":
      return [str(a.action), str(a.path) ?? "", str(a.pattern) ?? ""].filter(Boolean).join(" ");
    case "ask_user":
      return str(a.question) ?? "";
    case "report_progress":
      return str(a.message) ?? "";
    case "task":
      return Array.isArray(a.items) ? taskProgress(taskItems(args)) : "";
    case "subagent":
      return str(a.task) ?? "";
    case "web_fetch":
      return str(a.url) ?? "";
    default: {
      const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
      return text === "{}" ? "" : text.length > 120 ? `${text.slice(0, 119)}…` : text;
    }
  }
}

/** Arguments in full, for the expanded card. */
export function argumentsText(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args, null, 2);
}

/**
 * A stored tool message's content back as the output it was: objects were stored as JSON. Only the
 * tools whose output is an object are parsed, so a text output that happens to be JSON stays text.
 */
export function storedOutput(name: string, content: string): unknown {
  if ((name === "shell" || name === "file" || name === "web_fetch") && content.startsWith("{")) {
    try {
      return JSON.parse(content);
    } catch {
      return content;
    }
  }
  return content;
}

/**
 * The output as text: a shell run's own text with its exit code, a fetched page after the line that
 * says where it came from, anything else as is or as JSON.
 */
export function outputText(name: string, output: unknown): string {
  if (output === undefined) return "";
  if (typeof output === "string") return output;
  const o = record(output);
  if (name === "shell" && typeof o.output === "string") {
    const notes = [
      typeof o.exitCode === "number" ? `exit code ${o.exitCode}` : undefined,
      o.timedOut === true ? "timed out" : undefined,
      o.truncated === true ? "output cut in the middle" : undefined,
    ].filter(Boolean);
    return `${o.output}${o.output.endsWith("\n") || o.output === "" ? "" : "\n"}[${notes.join(", ")}]`;
  }
  // web_fetch: where the text came from first (after redirects), then the page.
  if (name === "web_fetch" && typeof o.content === "string") {
    const type = typeof o.contentType === "string" && o.contentType ? ` ${o.contentType}` : "";
    return `[${String(o.status)}${type} from ${String(o.url)}${o.truncated === true ? ", cut" : ""}]\n\n${o.content}`;
  }
  return JSON.stringify(output, null, 2);
}

export type DiffLine = { kind: "add" | "del" | "hunk" | "file" | "context"; text: string };

/**
 * A unified diff as typed lines (the signs are kept in `text`: colour is never the only cue). The
 * `---`/`+++` lines are headers only before a hunk, so a removed line "-- note" stays a removal.
 */
export function diffLines(diff: string): DiffLine[] {
  let inHunk = false;
  // jsdiff's "=====" rule between files carries nothing a reader needs.
  const kept = diff
    .replace(/\n$/, "")
    .split("\n")
    .filter((text) => !/^=+$/.test(text));
  return kept.map((text): DiffLine => {
    if (text.startsWith("Index:")) inHunk = false;
    if (text.startsWith("@@")) {
      inHunk = true;
      return { kind: "hunk", text };
    }
    if (!inHunk) return { kind: "file", text };
    if (text.startsWith("+")) return { kind: "add", text };
    if (text.startsWith("-")) return { kind: "del", text };
    return { kind: "context", text };
  });
}

/** Added and removed line counts of a diff, for the collapsed line. */
export function diffStat(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diffLines(diff)) {
    if (line.kind === "add") added++;
    if (line.kind === "del") removed++;
  }
  return { added, removed };
}

/**
 * Whether a card opens with its output shown: a call that failed (the reason is what the user needs),
 * and a direct run from the composer once it has a result (the user asked for that output itself).
 */
export function opensByDefault(card: ToolCardData, direct: boolean): boolean {
  return card.status === "failed" || (direct && card.output !== undefined);
}

/** The project-relative path a file card changed, for Open diff. */
export function changedPath(card: ToolCardData): string | undefined {
  return card.name === "file" && card.diff ? str(record(card.args).path) : undefined;
}

/**
 * What a card can ask of the chat: answer its prompt, and (in VS Code) open an editor diff. Always
 * allow is a remembered allow in a trusted project, "Trust and allow" in one the user has not
 * trusted (contract 7.1), and not offered while VS Code's Restricted Mode keeps it untrusted.
 */
export type ToolActions = {
  approve(callId: string, decision: "allow" | "deny", remember: boolean): Promise<void>;
  alwaysAllow?: AlwaysAllowMode;
  /** Trusts the project, then allows the call and the tool for good. */
  trustAndAllow?: (callId: string) => Promise<void>;
  answer(callId: string, answer: string): Promise<void>;
  openDiff?: (turnId: string, path: string) => void;
};
