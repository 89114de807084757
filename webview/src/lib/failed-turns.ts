// Failed turns in the transcript. The server stores a turn that failed upstream (the user message
// and an assistant message with status "error"), and has no route to run it again, so Retry sends
// the message anew: the failed attempt it replaces is then left out, so the message shows once.
import type { Message } from "$shared/chats";

/** A user message (with the file messages sent before it) and everything answered to it. */
type Turn = { messages: Message[]; text: Message | undefined };

function turnsOf(messages: readonly Message[]): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  for (const message of messages) {
    const startsTurn = message.role === "user" && !(current && current.messages.at(-1)?.role === "user");
    if (!current || startsTurn) turns.push((current = { messages: [], text: undefined }));
    current.messages.push(message);
    if (message.role === "user" && message.meta?.kind !== "file" && message.meta?.kind !== "resource")
      current.text = message;
  }
  return turns;
}

function answerOf(turn: Turn): Message | undefined {
  return turn.messages.filter((m) => m.role === "assistant").at(-1);
}

function failed(turn: Turn): boolean {
  return answerOf(turn)?.status === "error";
}

/**
 * The messages without the failed attempts that a later send of the same text replaced; `resending`
 * (the text being sent right now) replaces the last failed turn already, while its answer streams.
 */
export function withoutRetried(messages: readonly Message[], resending?: string): Message[] {
  const turns = turnsOf(messages);
  const replaced = (turn: Turn, i: number) => {
    if (!failed(turn) || !turn.text) return false;
    const next = i + 1 < turns.length ? turns[i + 1]!.text?.content : resending;
    return next === turn.text.content;
  };
  // A compaction stored during a replaced attempt still holds: its card stays.
  return turns.flatMap((turn, i) =>
    replaced(turn, i) ? turn.messages.filter((m) => m.role === "compaction") : turn.messages,
  );
}

/**
 * The transcript's last turn when it failed: the text to send again with the files and MCP resources
 * it referenced, and its failed answer.
 */
export function lastFailure(messages: readonly Message[]):
  | {
      content: string;
      referencedPaths?: string[];
      referencedResources?: { serverId: string; uri: string; name: string }[];
      answerId: string;
    }
  | undefined {
  const turn = turnsOf(messages).at(-1);
  const answer = turn && answerOf(turn);
  if (!turn?.text || answer?.status !== "error") return undefined;
  const paths = turn.text.meta?.referencedPaths;
  const resources = turn.messages.flatMap(({ role, meta }) =>
    role === "user" && meta?.kind === "resource" && meta.serverId && meta.uri
      ? [{ serverId: meta.serverId, uri: meta.uri, name: meta.path ?? meta.uri }]
      : [],
  );
  return {
    content: turn.text.content,
    ...(paths?.length ? { referencedPaths: paths } : {}),
    ...(resources.length ? { referencedResources: resources } : {}),
    answerId: answer.id,
  };
}
