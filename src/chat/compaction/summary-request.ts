// The request that has a compaction's summary written (contract 7.3): what a handoff needs (the
// task, decisions, files touched, facts to keep, what is left), from the previous summary and the
// part of the conversation it now covers. The conversation goes as text, not as chat messages: a
// request with tool calls but no tools is refused by some vendors, and the summariser needs none.
// Pure.
import type { UpstreamMessage } from "../transcript";
import type { RequestRow } from "../context/request-messages";

export const SUMMARY_INSTRUCTIONS = `You summarise a conversation between a user and a coding assistant so that the assistant can carry on from your summary alone: the messages you summarise will not be sent again.

Write a handoff note in markdown with these sections, as short as it can be while keeping everything that matters:
## Task
What the user asked for, in their words where the wording matters, and any constraints they set.
## Decisions
What was decided and why; approaches tried and abandoned.
## Files
Each file read, created or changed, with what matters about it.
## Facts to keep
Names, numbers, paths, commands, error messages and anything the user or a tool output said to remember, verbatim.
## Done and left
What is finished, what is left, and the next step.

If a previous summary is given, extend it: keep what still holds, add what is new. Never invent anything.`;

/** A tool output is cut to its head and tail past this: the summariser needs its gist, not every line. */
export const SUMMARY_OUTPUT_CHARS = 8_000;

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.floor(max * 0.75);
  const tail = max - head;
  return `${text.slice(0, head)}\n[… ${text.length - max} characters left out …]\n${text.slice(-tail)}`;
}

/** One row as the summariser reads it. */
function rowText(row: RequestRow): string | undefined {
  const meta = row.meta ?? {};
  if (row.role === "user") {
    if (meta.kind === "file" || meta.kind === "resource")
      return `### File given by the user\n${clip(row.content, SUMMARY_OUTPUT_CHARS)}`;
    return `### User\n${row.content}`;
  }
  if (row.role === "assistant") {
    const calls = (meta.toolCalls ?? []).map((call) => `- called ${call.name} ${call.arguments}`);
    if (!row.content && calls.length === 0) return undefined;
    return ["### Assistant", row.content, ...calls].filter(Boolean).join("\n");
  }
  if (row.role === "tool") return `### Output of ${meta.name ?? "a tool"}\n${clip(row.content, SUMMARY_OUTPUT_CHARS)}`;
  return undefined;
}

/**
 * The summary request: the instructions, then one user message with the previous summary and the
 * covered rows as they were stored (pruned outputs in full, up to the clip). `maxChars` bounds the
 * conversation text, cutting its middle, so the request fits the summariser's window.
 */
export function summaryRequest(
  rows: readonly RequestRow[],
  previousSummary: string | undefined,
  maxChars: number,
): UpstreamMessage[] {
  const conversation = rows
    .map(rowText)
    .filter((text): text is string => text !== undefined)
    .join("\n\n");
  const parts = [
    ...(previousSummary ? [`# Previous summary\n\n${previousSummary}`] : []),
    `# Conversation to summarise\n\n${clip(conversation, Math.max(1_000, maxChars))}`,
    "Write the summary now.",
  ];
  return [
    { role: "system", content: SUMMARY_INSTRUCTIONS },
    { role: "user", content: parts.join("\n\n") },
  ];
}
