// The turn being streamed, as a value folded from its events: text, tool cards and compactions in the
// order they came, the reasoning, the task list, the status line and any notice. Pure (each event
// gives a new value), so a replayed turn (a reload that follows it) rebuilds the same view.
import type { StreamEvent, StreamEventData } from "$shared/stream-events";
import { compactionFromEvent, type CompactionCardData } from "./compaction";
import { resultStatus, type ToolCardData } from "./tool-cards";

export type TaskItem = StreamEventData<"task.update">["items"][number];
export type LivePart =
  | { kind: "text"; key: string; text: string }
  | { kind: "tool"; key: string; card: ToolCardData }
  | { kind: "compaction"; key: string; compaction: CompactionCardData };
export type LiveTurn = {
  turnId?: string;
  parts: LivePart[];
  reasoning: string;
  tasks: TaskItem[];
  progress?: string;
  /** What the turn told the user besides its answer (a `notice` event: the model refused tools, …). */
  notice?: string;
};

export const emptyTurn = (): LiveTurn => ({ parts: [], reasoning: "", tasks: [] });

/** The turn with one card changed (or added, when an approval or question comes before its call). */
export function updateCard(
  turn: LiveTurn,
  callId: string,
  change: (card: ToolCardData) => ToolCardData,
  create?: () => ToolCardData,
): LiveTurn {
  let found = false;
  const parts = turn.parts.map((part) => {
    if (part.kind !== "tool" || part.card.callId !== callId) return part;
    found = true;
    return { ...part, card: change(part.card) };
  });
  if (found || !create) return { ...turn, parts };
  return { ...turn, parts: [...parts, { kind: "tool", key: `tool-${callId}`, card: change(create()) }] };
}

export function reduceTurn(turn: LiveTurn, event: StreamEvent): LiveTurn {
  switch (event.event) {
    case "turn.start":
      return { ...emptyTurn(), turnId: event.data.turnId };
    case "text.delta": {
      const last = turn.parts.at(-1);
      if (last?.kind === "text")
        return { ...turn, parts: [...turn.parts.slice(0, -1), { ...last, text: last.text + event.data.text }] };
      return {
        ...turn,
        parts: [...turn.parts, { kind: "text", key: `text-${turn.parts.length}`, text: event.data.text }],
      };
    }
    case "reasoning.delta":
      return { ...turn, reasoning: turn.reasoning + event.data.text };
    case "tool.call":
    case "tool.approval":
    case "tool.question": {
      const { callId, parentCallId } = event.data;
      const name = "name" in event.data ? event.data.name : "ask_user";
      const args =
        "arguments" in event.data
          ? event.data.arguments
          : { question: event.data.question, choices: event.data.choices };
      const create = (): ToolCardData => ({
        callId,
        name,
        args,
        status: "running",
        ...(turn.turnId ? { turnId: turn.turnId } : {}),
        ...(parentCallId ? { parentCallId } : {}),
      });
      if (event.event === "tool.call") return updateCard(turn, callId, (card) => card, create);
      const ask =
        event.event === "tool.approval"
          ? { kind: "approval" as const }
          : {
              kind: "question" as const,
              question: event.data.question,
              ...(event.data.choices ? { choices: event.data.choices } : {}),
            };
      return updateCard(turn, callId, (card) => ({ ...card, status: "waiting", ask }), create);
    }
    case "tool.result": {
      const { callId, name, ok, output, diff, parentCallId } = event.data;
      const create = (): ToolCardData => ({
        callId,
        name,
        args: undefined,
        status: "running",
        ...(turn.turnId ? { turnId: turn.turnId } : {}),
        ...(parentCallId ? { parentCallId } : {}),
      });
      return updateCard(
        turn,
        callId,
        ({ ask: _ask, askError: _error, ...card }) => ({
          ...card,
          status: resultStatus(ok, output),
          output,
          ...(diff ? { diff } : {}),
        }),
        create,
      );
    }
    case "task.update":
      return { ...turn, tasks: event.data.items };
    case "progress":
      return { ...turn, progress: event.data.message };
    case "notice":
      return { ...turn, notice: event.data.message };
    case "compaction": {
      // Keyed by the stored entry's id, as the transcript keys it: a replayed event adds no second card.
      if (turn.parts.some((part) => part.kind === "compaction" && part.key === event.data.id)) return turn;
      const compaction = compactionFromEvent(event.data);
      return { ...turn, parts: [...turn.parts, { kind: "compaction", key: event.data.id, compaction }] };
    }
    default:
      return turn;
  }
}

/** The ids of the compactions the live turn shows: their stored rows wait until it ends. */
export function liveCompactionIds(turn: LiveTurn): Set<string> {
  return new Set(turn.parts.flatMap((part) => (part.kind === "compaction" ? [part.key] : [])));
}

/** The user answered: the card runs on (or waits for the denial to come back) without its prompt. */
export function answered(turn: LiveTurn, callId: string): LiveTurn {
  return updateCard(turn, callId, ({ ask: _ask, askError: _error, ...card }) => ({ ...card, status: "running" }));
}

/** The server refused an answer: the prompt stays, with why. */
export function answerFailed(turn: LiveTurn, callId: string, message: string): LiveTurn {
  return updateCard(turn, callId, (card) => ({ ...card, askError: message }));
}
