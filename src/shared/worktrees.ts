// Worktree chats (contract 7.6): a chat whose tools run in a git worktree of its own, on a branch
// `parley/<slug>`, and the board that lists a project's such chats.
import { z } from "zod";
import { approvalReasonSchema } from "./approval-reasons";
import { chatSchema } from "./chats";

/** One file the chat changed against its base; `added`/`removed` are null for a binary file. */
export const worktreeChangeSchema = z.object({
  path: z.string(),
  added: z.number().int().nullable(),
  removed: z.number().int().nullable(),
});
export type WorktreeChange = z.infer<typeof worktreeChangeSchema>;

/**
 * `ready`: its folder is there; `missing`: the folder was deleted by hand (the branch and its commits
 * stay; Discard cleans up); `discarded`: removed by Discard (the chat keeps its messages).
 */
export const worktreeStateSchema = z.enum(["ready", "missing", "discarded"]);

/** GET /api/chats/:id/worktree. Paths in `changedFiles` are relative to the repository's top folder. */
export const worktreeSchema = z.object({
  branch: z.string(),
  /** The branch it started from (a merge lands there), or a commit when the project's HEAD was detached. */
  base: z.string(),
  baseCommit: z.string(),
  path: z.string(),
  state: worktreeStateSchema,
  changedFiles: z.array(worktreeChangeSchema),
  /** Commits of the chat's work (its uncommitted files count as one) that `base` lacks, and the reverse. */
  ahead: z.number().int(),
  behind: z.number().int(),
  /** The project had uncommitted changes when the chat started: they are not in the worktree. */
  startedDirty: z.boolean(),
});
export type Worktree = z.infer<typeof worktreeSchema>;

export const worktreeMergeBodySchema = z.strictObject({ mode: z.enum(["merge", "squash"]).default("merge") });
export const worktreeMergeResultSchema = z.object({
  /** The commit that now holds the chat's work on `base`. */
  commit: z.string(),
  base: z.string(),
  mode: z.enum(["merge", "squash"]),
  files: z.array(z.string()),
});
export type WorktreeMergeResult = z.infer<typeof worktreeMergeResultSchema>;

export const worktreeDiscardBodySchema = z.strictObject({ force: z.boolean().optional() });

/** GET /api/chats/:id/worktree/file: one changed file as it is at the base and in the worktree (null: absent). */
export const worktreeFileQuerySchema = z.strictObject({ path: z.string().min(1).max(4096) });
export const worktreeFileSchema = z.object({
  path: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** Either side is not text (or too large to show). */
  binary: z.boolean(),
});

/** What a chat on the board waits for: an approval of a call, or an answer to `ask_user`. */
export const waitingItemSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("approval"),
    callId: z.string(),
    name: z.string(),
    arguments: z.unknown(),
    /** Why it asks although its gate may allow it (contract 7.5), as the chat's approval says. */
    reasons: z.array(approvalReasonSchema).min(1).optional(),
  }),
  z.object({
    kind: z.literal("question"),
    callId: z.string(),
    question: z.string(),
    choices: z.array(z.string()).optional(),
  }),
]);
export type WaitingItem = z.infer<typeof waitingItemSchema>;

export const boardStatusSchema = z.enum(["running", "waiting", "done", "failed", "new"]);
export type BoardStatus = z.infer<typeof boardStatusSchema>;

export const boardEntrySchema = z.object({
  chat: chatSchema,
  status: boardStatusSchema,
  /** The worktree as GET /api/chats/:id/worktree gives it; null with `error` when git could not tell. */
  worktree: worktreeSchema.nullable(),
  error: z.string().optional(),
  /** The chat's spend from the ledger; null when a turn's cost is unknown. */
  cost: z.number().nullable(),
  lastMessage: z.string().nullable(),
  waiting: z.array(waitingItemSchema),
});
export type BoardEntry = z.infer<typeof boardEntrySchema>;

/** GET /api/projects/:id/worktree-chats: the project's board, newest chat first. */
export const boardSchema = z.object({
  entries: z.array(boardEntrySchema),
  /** Every listed chat's spend; null when one of them is unknown. */
  cost: z.number().nullable(),
});
export type Board = z.infer<typeof boardSchema>;
