// The messages of the request a chat would send, built from its stored transcript with its
// compactions applied (contract 7.3): the system messages, then the conversation, in which the
// latest summary stands for everything it covers (the chat's first user message is kept), and the
// tool outputs a compaction pruned are one-line stubs. The stored transcript itself is never changed.
// Pure: the caller reads the rows.
import { compactionMetaSchema, type CompactionMeta } from "../../shared/compaction";
import { transcriptMessages, type TranscriptRow, type UpstreamMessage } from "../transcript";
import { rowLayer, type ContextLayer } from "./context-layers";

/** A transcript row as stored (`id`, `seq`), or about to be (neither yet). */
export type RequestRow = TranscriptRow & { id?: string; seq?: number };

export type BuiltRequest = {
  messages: UpstreamMessage[];
  /** The context layer of each message. */
  layers: ContextLayer[];
  /** The row each message came from (none for system messages and the summary). */
  sources: (RequestRow | undefined)[];
};

export type SystemPart = { messages: readonly UpstreamMessage[]; layers?: readonly ContextLayer[] };

/** How the summary is put before the model: a user message, which every vendor accepts anywhere. */
export const SUMMARY_HEADER =
  "Earlier parts of this conversation were compacted to fit the context window. Their summary:";

export function summaryMessage(summary: string): UpstreamMessage {
  return { role: "user", content: `${SUMMARY_HEADER}\n\n${summary}` };
}

/** What a pruned tool output is replaced with: the tool's name, and the way back. */
export function prunedStub(toolName: string | undefined): string {
  return `[The output of ${toolName ?? "this tool"} was pruned to save context. Call the tool again if you need it.]`;
}

export type StoredCompaction = { id: string; seq: number; summary: string; meta: CompactionMeta };

/** The chat's compaction entries, oldest first (entries whose meta cannot be read are ignored). */
export function compactionEntries(rows: readonly RequestRow[]): StoredCompaction[] {
  const entries: StoredCompaction[] = [];
  for (const row of rows) {
    if (row.role !== "compaction" || row.id === undefined || row.seq === undefined) continue;
    const meta = compactionMetaSchema.safeParse(row.meta);
    if (meta.success) entries.push({ id: row.id, seq: row.seq, summary: row.content, meta: meta.data });
  }
  return entries;
}

/** The summary in force: the latest entry that has one, and the position of the last row it covers. */
export function latestSummary(
  rows: readonly RequestRow[],
  entries: readonly StoredCompaction[] = compactionEntries(rows),
): { entry: StoredCompaction; throughSeq: number } | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (!entry.meta.through || !entry.summary) continue;
    const through = rows.find((row) => row.id === entry.meta.through);
    if (through?.seq !== undefined) return { entry, throughSeq: through.seq };
  }
  return undefined;
}

export function buildRequest(system: SystemPart, rows: readonly RequestRow[]): BuiltRequest {
  const sent: RequestRow[] = [];
  const conversation = transcriptMessages(rows, (row) => sent.push(row));
  const entries = compactionEntries(rows);
  const pruned = new Set(entries.flatMap((entry) => entry.meta.pruned));
  const summary = latestSummary(rows, entries);

  const messages: UpstreamMessage[] = [...system.messages];
  const layers: ContextLayer[] = system.messages.map((_, i) => system.layers?.[i] ?? "system");
  const sources: (RequestRow | undefined)[] = system.messages.map(() => undefined);
  const push = (message: UpstreamMessage, layer: ContextLayer, source: RequestRow | undefined) => {
    messages.push(message);
    layers.push(layer);
    sources.push(source);
  };
  let firstUserSeen = false;
  let summaryPlaced = summary === undefined;
  // A result goes where its call goes: an entry covering a call covers its results too.
  const coveredCalls = new Set<string>();
  conversation.forEach((message, i) => {
    const row = sent[i]!;
    const layer = rowLayer(row);
    const firstUser = !firstUserSeen && message.role === "user" && layer === "history";
    if (firstUser) firstUserSeen = true;
    const covered =
      (summary !== undefined && row.seq !== undefined && row.seq <= summary.throughSeq) ||
      (message.role === "tool" && coveredCalls.has(message.tool_call_id as string));
    if (covered && !firstUser) {
      for (const call of (message.tool_calls ?? []) as { id: string }[]) coveredCalls.add(call.id);
      return;
    }
    // The summary follows the first user message; it comes first when that message is not covered.
    if (!summaryPlaced && !firstUser) {
      push(summaryMessage(summary!.entry.summary), "summary", undefined);
      summaryPlaced = true;
    }
    if (message.role === "tool" && typeof message.tool_call_id === "string" && pruned.has(message.tool_call_id))
      push({ ...message, content: prunedStub(row.meta?.name) }, layer, row);
    else push(message, layer, row);
  });
  if (!summaryPlaced) push(summaryMessage(summary!.entry.summary), "summary", undefined);
  return { messages, layers, sources };
}
