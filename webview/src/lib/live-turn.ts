// The turn being streamed, as a value folded from its events: text, tool cards and compactions in the
// order they came, the reasoning, the task list, the status line and any notice; and what it is doing
// right now, in words. Pure (each event gives a new value), so a replayed turn (a reload that follows
// it) rebuilds the same view.
import type { Message } from "$shared/chats";
import type { StreamEvent } from "$shared/stream-events";
import { compactionFromEvent, type CompactionCardData } from "./compaction";
import { argumentSummary, resultStatus, type TaskItem, type ToolCardData } from "./tool-cards";
import { toolTitle, type ServerNames } from "./tool-titles";

export type { TaskItem };
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
  /** The model's reasoning is what came last (it thinks before its next text or call). */
  thinking: boolean;
};

export const emptyTurn = (): LiveTurn => ({ parts: [], reasoning: "", tasks: [], thinking: false });

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
  // Anything the model sends after its reasoning ends the thinking; the rest (usage, context) leaves it.
  const ends = ["text.delta", "tool.call", "tool.approval", "tool.question", "tool.result", "compaction"];
  if (turn.thinking && ends.includes(event.event)) turn = { ...turn, thinking: false };
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
      return { ...turn, reasoning: turn.reasoning + event.data.text, thinking: true };
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
          ? { kind: "approval" as const, ...(event.data.reasons ? { reasons: event.data.reasons } : {}) }
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

/** The calls waiting for the user (an approval or an answer), in the order they came. */
export function waitingCards(turn: LiveTurn): ToolCardData[] {
  return turn.parts.flatMap((part) => (part.kind === "tool" && part.card.ask ? [part.card] : []));
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * What the running turn is doing now, for the working line between tokens: waiting for the user, a
 * call that runs (the innermost one: a subagent's own call rather than the subagent), the model
 * thinking or writing, or the model being asked (after a call's result, before the first token).
 */
export function currentStep(turn: LiveTurn, names?: ServerNames): string {
  const waiting = waitingCards(turn)[0];
  if (waiting)
    return waiting.ask?.kind === "question"
      ? "Waiting for your answer…"
      : `Waiting for you to allow ${toolTitle(waiting.name, names)}…`;
  const running = turn.parts
    .flatMap((part) => (part.kind === "tool" && part.card.status === "running" ? [part.card] : []))
    .at(-1);
  if (running) {
    const { name, args } = running;
    const summary = clip(argumentSummary(name, args).replace(/\s+/g, " ").trim(), 60);
    return `Running ${toolTitle(name, names)}${summary ? `: ${summary}` : "…"}`;
  }
  if (turn.thinking) return "Thinking…";
  if (!turn.turnId) return "Starting…";
  return turn.parts.at(-1)?.kind === "text" ? "Writing…" : "Waiting for the model…";
}

/**
 * Whether the transcript's last step called tools whose results are not all stored: its turn is still
 * live (a call runs, or waits for the user's approval or answer), unless it was cut off. A UI that
 * opens then follows the turn, so a waiting call can be answered after a reload too.
 */
export function callsAwaitResults(messages: readonly Message[]): boolean {
  const answered = new Set<string>();
  let i = messages.length - 1;
  for (; i >= 0 && messages[i]!.role === "tool"; i--) {
    const callId = messages[i]!.meta?.callId;
    if (callId) answered.add(callId);
  }
  const step = messages[i];
  const calls = step?.role === "assistant" ? (step.meta?.toolCalls ?? []) : [];
  return calls.some((call) => !answered.has(call.id));
}
