// The board of a project's worktree chats (contract 7.6): each chat's status, its worktree's changes,
// its spend from the ledger, its last answer and what it waits for; the board's total spend.
import type { ChatsRepo } from "../chat/chats-repo";
import type { MessagesRepo } from "../chat/messages-repo";
import type { Chat, Message } from "../shared/chats";
import type { Board, BoardEntry, BoardStatus } from "../shared/worktrees";
import type { PendingInteractions } from "../tools/interactions";
import type { WorktreeService } from "./worktree-service";
import type { WorktreesRepo } from "./worktrees-repo";

export type BoardDeps = {
  repo: WorktreesRepo;
  worktrees: WorktreeService;
  chats: ChatsRepo;
  messages: MessagesRepo;
  interactions: PendingInteractions;
  isActive: (chatId: string) => boolean;
};

/** How many rows of a chat's path are read back for its last answer. */
const LAST_ROWS = 40;
const LAST_MESSAGE_CHARS = 280;

/** A chat's status from its turn, its last answer and the row its path ends at. Pure. */
export function statusOf(
  active: boolean,
  waiting: number,
  last: Message | undefined,
  end: Message | undefined = last,
): BoardStatus {
  if (waiting > 0) return "waiting";
  if (active) return "running";
  if (!last) return "new";
  // Tool calls nothing answered end the path only when Parley died while they ran (a cancel stores
  // an answer to each): that turn did not finish.
  if (end === last && (last.meta?.toolCalls?.length ?? 0) > 0) return "failed";
  return last.status === "error" || last.status === "interrupted" ? "failed" : "done";
}

/** Sums costs, unknown (null) as soon as one is. */
function total(costs: readonly (number | null)[]): number | null {
  return costs.some((cost) => cost === null) ? null : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0);
}

async function entryOf(deps: BoardDeps, chat: Chat): Promise<BoardEntry> {
  const path = deps.messages.pathTo(chat.leafId, LAST_ROWS);
  const last = path.findLast((message) => message.role === "assistant");
  const waiting = deps.interactions.waitingIn(chat.id);
  const text = last?.content.trim() || last?.meta?.error?.message || null;
  const base = {
    chat,
    status: statusOf(deps.isActive(chat.id), waiting.length, last, path.at(-1)),
    cost: deps.messages.usageTotals(chat.id).cost,
    lastMessage: text === null ? null : text.slice(0, LAST_MESSAGE_CHARS),
    waiting,
  };
  try {
    return { ...base, worktree: await deps.worktrees.info(chat.id) };
  } catch (error) {
    return { ...base, worktree: null, error: (error as Error).message };
  }
}

/** GET /api/projects/:id/worktree-chats. */
export async function boardOf(deps: BoardDeps, projectId: string): Promise<Board> {
  const chats = deps.repo.activeInProject(projectId).flatMap((record) => deps.chats.byId(record.chatId) ?? []);
  const entries = await Promise.all(chats.map((chat) => entryOf(deps, chat)));
  return { entries, cost: total(entries.map((entry) => entry.cost)) };
}
