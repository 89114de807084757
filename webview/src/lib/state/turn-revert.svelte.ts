// Reverting one turn's file changes: the request, a conflict (files changed since) that may be
// forced, and what the revert restored or removed.
import { z } from "zod";
import { ApiError, type ApiClient } from "../api/client";

const conflictIssuesSchema = z.array(z.object({ path: z.string() })).catch([]);

export type RevertPhase = "idle" | "busy" | "conflict" | "done" | "failed";

export class TurnRevert {
  phase = $state<RevertPhase>("idle");
  /** Files changed since the turn, when the server refused (409). */
  conflicts = $state<string[]>([]);
  message = $state("");

  constructor(
    private readonly api: ApiClient,
    private readonly chatId: string,
    private readonly turnId: string,
    reverted = false,
  ) {
    if (reverted) {
      this.phase = "done";
      this.message = "These changes were reverted.";
    }
  }

  async run(force = false): Promise<void> {
    if (this.phase === "busy") return;
    this.phase = "busy";
    try {
      const result = await this.api.call("POST /api/chats/:id/turns/:turn/revert", {
        params: { id: this.chatId, turn: this.turnId },
        body: force ? { force } : {},
      });
      const parts = [
        result.restored.length > 0 ? `Restored ${result.restored.join(", ")}.` : "",
        result.removed.length > 0 ? `Removed ${result.removed.join(", ")}.` : "",
      ].filter(Boolean);
      this.phase = "done";
      this.conflicts = [];
      this.message = parts.join(" ") || "Nothing needed restoring.";
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        this.phase = "conflict";
        this.conflicts = conflictIssuesSchema.parse(error.issues ?? []).map((issue) => issue.path);
        this.message = error.message;
      } else if (error instanceof ApiError && error.status === 404) {
        this.phase = "done";
        this.message = "Nothing left to revert: this turn's changes were already reverted.";
      } else {
        this.phase = "failed";
        this.message = (error as Error).message;
      }
    }
  }
}
