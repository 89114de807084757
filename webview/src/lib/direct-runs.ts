// Direct runs from the composer (an agent, a tool, an action): following the run's own turn on the
// chat's stream, and a refused run explained with its way out. The stream route also replays the
// chat's last finished turn for a while, so a turn this chat already shows is skipped, not replayed.
import type { StreamEvent } from "$shared/stream-events";
import type { ComposerRouteResult } from "$shared/tools";
import { ApiError, type ApiClient } from "./api/client";
import { toolTitle } from "./tool-titles";

export type DirectRoute = Exclude<ComposerRouteResult, { kind: "message" }>;

/** Turns and messages the transcript already holds: a stream that starts one of these is an old turn. */
export type KnownTurns = { turnIds: ReadonlySet<string>; messageIds: ReadonlySet<string> };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Follows the chat's stream until the run's own turn ends. The run's request starts the turn, so the
 * stream is polled until it shows a new one; `settled()` says the request ended (then no turn is
 * waited for any more: a fast run may end before the first poll, and the transcript shows it).
 */
export async function followNewTurn(
  api: ApiClient,
  chatId: string,
  known: KnownTurns,
  onEvent: (event: StreamEvent) => void,
  settled: () => boolean,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    let mine = false;
    try {
      await api.chatStream(
        "GET /api/chats/:id/stream",
        { params: { id: chatId } },
        (event) => {
          if (event.event === "turn.start")
            mine = !known.turnIds.has(event.data.turnId) && !known.messageIds.has(event.data.messageId);
          if (mine) onEvent(event);
        },
        signal,
      );
    } catch {
      // a broken stream: the transcript read at the end shows what happened
    }
    if (mine || settled() || signal.aborted) return;
    await pause(100);
  }
}

/** A run the server refused: what happened in words, what the server said, what to do, and which ways out apply. */
export type DirectFailure = {
  text: string;
  status?: number;
  title: string;
  message: string;
  issues: string[];
  hint: string;
  /** The text may go to the model instead (an unknown agent, arguments that do not fit). */
  toModel: boolean;
  /** Where in Settings the fix is. */
  settings?: { hash: string; label: string };
};

function issueText(issue: unknown): string {
  if (issue && typeof issue === "object") {
    const { path, message } = issue as { path?: unknown; message?: unknown };
    const where = Array.isArray(path) && path.length > 0 ? `${path.join(".")}: ` : "";
    if (typeof message === "string") return `${where}${message}`;
  }
  return typeof issue === "string" ? issue : JSON.stringify(issue);
}

export function directFailure(text: string, route: DirectRoute | undefined, error: unknown): DirectFailure {
  const status = error instanceof ApiError ? error.status : undefined;
  const issues = error instanceof ApiError ? (error.issues ?? []).map(issueText) : [];
  const base = { text, status, message: (error as Error).message, issues };
  const what =
    route?.kind === "agent"
      ? `the agent "${route.agent}"`
      : route?.kind === "tool"
        ? `the tool "${toolTitle(route.tool)}"`
        : route?.kind === "action"
          ? `the action "${route.action}"`
          : "this command";
  const What = what.charAt(0).toUpperCase() + what.slice(1);
  switch (status) {
    case 404:
      return {
        ...base,
        title: `${What} is not defined in this project.`,
        toModel: true,
        hint: `Define ${what} in the project's .app.json, or send the text to the model.`,
      };
    case 403:
      // A project's actions run only once the user trusts it (contract 7.1); This project shows what trust covers.
      return route?.kind === "action" && /trust/i.test(base.message)
        ? {
            ...base,
            title: "This project's actions run only once you trust the project.",
            toModel: false,
            hint: "Review what this project would run and trust it, then try again.",
            settings: { hash: "#/settings/project", label: "Review trust on This project" },
          }
        : {
            ...base,
            title: `${What} is switched off in this project.`,
            toModel: false,
            hint: `Its gate is off here: set it to "ask" or "allow" in the project's toolGates, then try again.`,
            settings: { hash: "#/settings/project", label: "Open project settings" },
          };
    case 400:
      return {
        ...base,
        title: route?.kind === "tool" ? `${What} cannot take these arguments.` : `${What} cannot run as written.`,
        toModel: true,
        hint: "Correct the text in the box and press Enter again, or send it to the model.",
      };
    case 409:
      return {
        ...base,
        title: "This chat is busy with another answer.",
        toModel: false,
        hint: "Wait for the answer that is running, or Stop it, then try again.",
      };
    default:
      return { ...base, title: `${What} could not run.`, toModel: false, hint: "Try again." };
  }
}

const DIRECT_CALL_PREFIX = "call_ui_";

/** A call id of the client's own, so the card's Allow and Deny can answer a dispatch's approval. */
export function newCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `${DIRECT_CALL_PREFIX}${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** Whether a call is a direct run from this UI's composer (the server keeps the id the run gave it). */
export function isDirectCall(callId: string): boolean {
  return callId.startsWith(DIRECT_CALL_PREFIX);
}
