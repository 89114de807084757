// The export document as markdown (contract 7.4): a heading per turn ("You", "Assistant"), each tool
// call as a fenced block of its name and arguments with its result folded under it. Pure.
import type { ChatExport, ExportedMessage } from "../../shared/chat-export";
import { collapsible, fenced, inlineCode } from "./markdown-blocks";

type Call = NonNullable<ExportedMessage["toolCalls"]>[number];

/** JSON text pretty-printed as a `json` block; anything else (a model's malformed arguments) as it came. */
function jsonBlock(value: unknown): string {
  if (typeof value === "string") {
    try {
      return fenced(JSON.stringify(JSON.parse(value), null, 2), "json");
    } catch {
      return fenced(value);
    }
  }
  return fenced(JSON.stringify(value ?? null, null, 2), "json");
}

/** A tool's output: JSON (a shell run's record) pretty-printed, other text as it is. */
function outputBlock(output: string): string {
  if (/^\s*[[{]/.test(output)) {
    try {
      return fenced(JSON.stringify(JSON.parse(output), null, 2), "json");
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return fenced(output);
}

function resultOf(message: ExportedMessage): string {
  const result = message.toolResult!;
  const outcome = result.ok === false ? "failed" : result.ok === true ? "ok" : "done";
  const parts = [outputBlock(message.content)];
  if (message.diff) parts.push(fenced(message.diff, "diff"));
  return collapsible(`Result of ${result.name} (${outcome})`, parts.join("\n\n"));
}

function callOf(call: Call, result: ExportedMessage | undefined): string {
  const lines = [`**Tool call** ${inlineCode(call.name)}`, "", jsonBlock(call.arguments)];
  if (result) lines.push("", resultOf(result));
  return lines.join("\n");
}

/** A result whose call is not in the path (a direct run from the composer): its arguments come with it. */
function standaloneResult(message: ExportedMessage): string {
  const result = message.toolResult!;
  const lines = [`**Tool** ${inlineCode(result.name)}`];
  if (result.arguments !== undefined) lines.push("", jsonBlock(result.arguments));
  lines.push("", resultOf(message));
  return lines.join("\n");
}

const STATUS_NOTES: Partial<Record<ExportedMessage["status"], string>> = {
  truncated: "_(cut off at the model's output limit)_",
  cancelled: "_(stopped)_",
  interrupted: "_(interrupted)_",
  streaming: "_(still being written when exported)_",
};

function assistantBody(message: ExportedMessage, results: Map<string, ExportedMessage>): string {
  const parts: string[] = [];
  if (message.reasoning) parts.push(collapsible("Reasoning", message.reasoning));
  if (message.content.trim()) parts.push(message.content.trim());
  for (const call of message.toolCalls ?? []) parts.push(callOf(call, results.get(call.id)));
  if (message.error) parts.push(`> **Error:** ${message.error}`);
  const note = STATUS_NOTES[message.status];
  if (note) parts.push(note);
  return parts.join("\n\n");
}

function userBody(message: ExportedMessage): string {
  const attachment = message.attachment;
  if (!attachment) return message.content.trim();
  const what = attachment.kind === "file" ? "file" : "resource";
  const name = attachment.path ?? attachment.uri ?? "";
  return collapsible(`Attached ${what} ${name}`, fenced(message.content));
}

function compactionBody(message: ExportedMessage): string {
  return message.content.trim()
    ? `${collapsible("Summary of the earlier messages", message.content.trim())}`
    : "_Older tool outputs were pruned from the context._";
}

export function chatMarkdown(document: ChatExport): string {
  const { chat, messages } = document;
  // Results go under the call that asked for them; a result whose call is not in the path stands alone.
  const calls = new Set(messages.flatMap((m) => (m.toolCalls ?? []).map((call) => call.id)));
  const results = new Map(
    messages.filter((m) => m.toolResult && calls.has(m.toolResult.callId)).map((m) => [m.toolResult!.callId, m]),
  );
  const out = [
    `# ${chat.title.replace(/\s+/g, " ").trim()}`,
    "",
    `_Exported from Parley on ${document.exportedAt}${chat.modelId ? ` · model ${inlineCode(chat.modelId)}` : ""}_`,
  ];
  let heading: string | undefined;
  const section = (title: string, body: string) => {
    if (!body) return;
    // One heading per turn: the steps of an answer (text, tool calls, more text) stay under one.
    if (title !== heading) out.push("", `## ${title}`);
    heading = title;
    out.push("", body);
  };
  for (const message of messages) {
    if (message.role === "user") section("You", userBody(message));
    else if (message.role === "assistant") section("Assistant", assistantBody(message, results));
    else if (message.role === "compaction") section("Context compacted", compactionBody(message));
    else if (!calls.has(message.toolResult!.callId)) section("Assistant", standaloneResult(message));
  }
  return `${out.join("\n")}\n`;
}
