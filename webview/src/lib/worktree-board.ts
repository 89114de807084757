// What the Agents board (contract 7.6) says about a worktree chat, in words: its status, its changed
// files' counts, the files a refused merge or discard names, and when the board reads itself again. Pure.
import type { BoardEntry, BoardStatus, WorktreeChange } from "$shared/worktrees";
import { formatCost } from "./format";

/** Each status in words (the badge's colour is never the only cue). */
export const STATUS_WORDS: Record<BoardStatus, string> = {
  running: "Running",
  waiting: "Waiting for you",
  done: "Done",
  failed: "Failed",
  new: "New",
};

/**
 * How often the board reads itself again while a chat runs or waits: a turn's steps and a new
 * approval come as no app event, only its end does.
 */
export const BOARD_POLL_MS = 3_000;

/** Whether some chat of the board is running or waiting, so its state changes without an event. */
export function needsPolling(entries: readonly Pick<BoardEntry, "status">[]): boolean {
  return entries.some((entry) => entry.status === "running" || entry.status === "waiting");
}

/** "+3 −1" (a real minus sign), or "binary" when git counts no lines. */
export function changeCounts(change: Pick<WorktreeChange, "added" | "removed">): string {
  if (change.added === null || change.removed === null) return "binary";
  return `+${change.added} −${change.removed}`;
}

/** The counts read aloud: "3 lines added, 1 removed", "binary file". */
export function changeCountsSpoken(change: Pick<WorktreeChange, "added" | "removed">): string {
  if (change.added === null || change.removed === null) return "binary file";
  return `${change.added} ${change.added === 1 ? "line" : "lines"} added, ${change.removed} removed`;
}

/** "1 file changed", "3 files changed", "No changes to merge" (none yet, or all merged). */
export function changedFilesLine(count: number): string {
  if (count === 0) return "No changes to merge";
  return `${count} ${count === 1 ? "file" : "files"} changed`;
}

/** The files a 409 names in its `issues` (`{path}` each); anything else there is skipped. */
export function issuePaths(issues: readonly unknown[] | undefined): string[] {
  return (issues ?? []).flatMap((issue) =>
    typeof issue === "object" && issue !== null && typeof (issue as { path?: unknown }).path === "string"
      ? [(issue as { path: string }).path]
      : [],
  );
}

/**
 * A refusal's message without the file names it ends with (": a.txt, b.txt and 3 more"), when the
 * list beside it shows them all; any other message as it is.
 */
export function withoutListedFiles(message: string, files: readonly string[]): string {
  const colon = message.lastIndexOf(": ");
  if (files.length === 0 || colon < 0) return message;
  const tail = message.slice(colon + 2);
  const named = tail.replace(/ and \d+ more$/, "").split(", ");
  return named.every((name) => files.includes(name)) ? message.slice(0, colon) : message;
}

/** A base as the merge buttons name it: a branch as it is, a commit (a detached HEAD) shortened. */
export function baseLabel(base: string): string {
  return /^[0-9a-f]{40}$/i.test(base) ? base.slice(0, 12) : base;
}

/** A chat's spend as its entry says it: "cost $0.012", or "cost unknown". */
export function costWords(cost: number | null): string {
  return cost === null ? "cost unknown" : `cost ${formatCost(cost)}`;
}
