// The stored transcript as the items the chat shows: messages, one card per tool call (an assistant
// step's calls paired with their `tool` messages by callId), a Revert per turn that changed files,
// and a card per compaction where it happened. A reload shows exactly what the live turn showed.
import type { Message } from "$shared/chats";
import { compactionFromMessage, compactionsInPlace, type CompactionCardData } from "./compaction";
import { changedPath, parseArguments, resultStatus, storedOutput, type ToolCardData } from "./tool-cards";

/** The versions of a message an edit or a regenerate made (contract 7.4): "‹ 2/3 ›". */
export type Versions = { ids: string[]; index: number };

/** What the end of a turn offers: its answer's versions, and the ids Retry and "Fork from here" use. */
export type TurnEnd = { answerId: string; versions?: Versions };

export type TranscriptItem =
  | { kind: "file"; key: string; path: string }
  /** `files`: the files the message referenced with @, shown as chips under it. */
  | { kind: "user"; key: string; message: Message; files: string[]; versions?: Versions }
  /** `turnEnd`: on the last answer of a turn the user asked for (not on a direct run's). */
  | { kind: "assistant"; key: string; message: Message; turnEnd?: TurnEnd }
  | { kind: "tool"; key: string; card: ToolCardData }
  /** `reverted`: the turn's changes were reverted (kept with the turn, so a reload says so too). */
  | { kind: "revert"; key: string; turnId: string; paths: string[]; reverted: boolean }
  /** A compaction entry (role `compaction`): what was summarised or pruned, and its summary. */
  | { kind: "compaction"; key: string; compaction: CompactionCardData };

/** A tool message as a finished card. */
function resultCard(message: Message, fallback?: { name: string; args: unknown }): ToolCardData {
  const meta = message.meta ?? {};
  const name = meta.name ?? fallback?.name ?? "tool";
  const output = storedOutput(name, message.content);
  return {
    callId: meta.callId ?? message.id,
    name,
    args: meta.arguments ?? fallback?.args,
    status: resultStatus(meta.ok === true, output),
    output,
    ...(meta.diff ? { diff: meta.diff } : {}),
    ...(meta.turnId ? { turnId: meta.turnId } : {}),
    ...(meta.parentCallId ? { parentCallId: meta.parentCallId } : {}),
  };
}

/** Whether an assistant message has anything to show besides its tool calls. */
function showsText(message: Message): boolean {
  return (
    message.content.trim() !== "" ||
    message.status !== "complete" ||
    message.usage !== null ||
    message.meta?.notice !== undefined
  );
}

/** A message's versions, when it has more than one. */
function versionsOf(message: Message | undefined): Versions | undefined {
  const ids = message?.siblings;
  return ids && ids.length > 1 ? { ids, index: message.siblingIndex ?? ids.indexOf(message.id) } : undefined;
}

/**
 * Marks each user-asked turn's last answer with its `turnEnd`: the turn is the user message and the
 * rows of the turn that answered it (a direct run after it has a turn of its own and gets none).
 */
function markTurnEnds(items: TranscriptItem[], messages: readonly Message[]): void {
  const index = new Map(messages.map((m, i) => [m.id, i]));
  let answerTurn: string | undefined;
  let firstAnswer: Message | undefined;
  let last: Extract<TranscriptItem, { kind: "assistant" }> | undefined;
  const close = () => {
    if (last && firstAnswer) last.turnEnd = { answerId: last.message.id, versions: versionsOf(firstAnswer) };
    answerTurn = firstAnswer = last = undefined;
  };
  for (const item of items) {
    if (item.kind === "user") {
      close();
      const next = messages[(index.get(item.message.id) ?? -2) + 1];
      if (next?.role === "assistant") ((firstAnswer = next), (answerTurn = next.meta?.turnId));
    } else if (item.kind === "assistant" && answerTurn !== undefined && item.message.meta?.turnId === answerTurn)
      last = item;
  }
  close();
}

export function transcriptItems(stored: readonly Message[]): TranscriptItem[] {
  const messages = compactionsInPlace(stored);
  const results = new Map<string, Message>();
  for (const m of messages) if (m.role === "tool" && m.meta?.callId) results.set(m.meta.callId, m);
  const shown = new Set<string>();
  const items: TranscriptItem[] = [];
  const lastOfTurn = new Map<string, number>();
  const changed = new Map<string, string[]>();
  const reverted = new Set<string>();

  const push = (item: TranscriptItem, turnId: string | undefined) => {
    items.push(item);
    if (turnId) lastOfTurn.set(turnId, items.length - 1);
  };
  const pushCard = (card: ToolCardData) => {
    shown.add(card.callId);
    push({ kind: "tool", key: `tool-${card.callId}`, card }, card.turnId);
    const path = card.status === "done" ? changedPath(card) : undefined;
    if (path && card.turnId) changed.set(card.turnId, [...new Set([...(changed.get(card.turnId) ?? []), path])]);
  };

  // The injected file (and MCP resource) messages come right before the message that referenced them: they show as that
  // message's chips, not as rows of their own (unless no message follows them).
  let files: Message[] = [];
  /** An edit goes beside the turn's first row: the first file it referenced, or the message itself. */
  const turnHead = (message: Message) => files[0] ?? message;
  const flushFiles = () => {
    for (const file of files) push({ kind: "file", key: file.id, path: file.meta?.path ?? "" }, undefined);
    files = [];
  };
  for (const message of messages) {
    const turnId = message.meta?.turnId;
    if (message.role === "user" && (message.meta?.kind === "file" || message.meta?.kind === "resource")) {
      files.push(message);
      continue;
    }
    if (message.role === "user") {
      // Project files by path; attached MCP resources by name (they are not in `referencedPaths`).
      const projectFiles = files.filter((f) => f.meta?.kind === "file").map((f) => f.meta?.path ?? "");
      const resources = files.filter((f) => f.meta?.kind === "resource").map((f) => f.meta?.path ?? "");
      const paths = [...(message.meta?.referencedPaths ?? projectFiles), ...resources];
      const versions = versionsOf(turnHead(message));
      files = [];
      push({ kind: "user", key: message.id, message, files: paths, ...(versions ? { versions } : {}) }, undefined);
      continue;
    }
    flushFiles();
    if (message.role === "compaction") {
      // No turn of its own: a turn's Revert still goes after that turn's last card.
      push({ kind: "compaction", key: message.id, compaction: compactionFromMessage(message) }, undefined);
    } else if (message.role === "assistant") {
      if (showsText(message)) push({ kind: "assistant", key: message.id, message }, turnId);
      for (const call of message.meta?.toolCalls ?? []) {
        const result = results.get(call.id);
        const args = parseArguments(call.arguments);
        pushCard(
          result
            ? resultCard(result, { name: call.name, args })
            : { callId: call.id, name: call.name, args, status: "interrupted", ...(turnId ? { turnId } : {}) },
        );
      }
    } else if (message.role === "tool") {
      if (message.meta?.reverted && turnId) reverted.add(turnId);
      // A result with no call before it (a subagent's own tool, say) still gets its card.
      if (message.meta?.callId && !shown.has(message.meta.callId)) pushCard(resultCard(message));
    }
  }
  flushFiles();

  // Each turn that changed files ends with its Revert; inserted from the end so indexes hold.
  const reverts = [...changed]
    .map(([turnId, paths]) => ({ at: lastOfTurn.get(turnId)!, turnId, paths }))
    .sort((a, b) => b.at - a.at);
  for (const { at, turnId, paths } of reverts)
    items.splice(at + 1, 0, { kind: "revert", key: `revert-${turnId}`, turnId, paths, reverted: reverted.has(turnId) });
  markTurnEnds(items, messages);
  return items;
}

/**
 * The item that shows a stored message (a search hit): its own, or for a message that has none of
 * its own the one that shows it (a referenced file: its message's chips; a step that only called
 * tools, or a tool output: the call's card).
 */
export function itemKeyOf(items: readonly TranscriptItem[], messages: readonly Message[], messageId: string) {
  const keys = new Set(items.map((item) => item.key));
  const at = messages.findIndex((m) => m.id === messageId);
  const message = messages[at];
  if (!message) return undefined;
  if (keys.has(message.id)) return message.id;
  const callId = message.role === "tool" ? message.meta?.callId : message.meta?.toolCalls?.[0]?.id;
  if (callId && keys.has(`tool-${callId}`)) return `tool-${callId}`;
  // A referenced file shows as a chip of the message after it.
  return messages.slice(at + 1).find((m) => keys.has(m.id))?.id;
}
