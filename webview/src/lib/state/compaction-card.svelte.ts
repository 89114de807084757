// One compaction card's own state: viewing, editing its summary (with a draft and what is wrong with
// it), or asking before the undo; busy while the server answers.
import { summaryProblem } from "../compaction";
import type { CompactionActions } from "./compactions.svelte";

export type CompactionCardMode = "view" | "edit" | "confirm-undo";

export class CompactionCardState {
  mode = $state<CompactionCardMode>("view");
  draft = $state("");
  busy = $state(false);
  /** Why the last save or undo did not happen, in words. */
  problem = $state("");

  constructor(
    private readonly actions: CompactionActions,
    private readonly id: string,
  ) {}

  startEdit(summary: string): void {
    this.draft = summary;
    this.problem = "";
    this.mode = "edit";
  }

  askUndo(): void {
    this.problem = "";
    this.mode = "confirm-undo";
  }

  cancel(): void {
    this.problem = "";
    this.mode = "view";
  }

  async save(): Promise<void> {
    const problem = summaryProblem(this.draft);
    if (problem) {
      this.problem = problem;
      return;
    }
    await this.run(() => this.actions.edit(this.id, this.draft));
  }

  async undo(): Promise<void> {
    await this.run(() => this.actions.undo(this.id));
  }

  private async run(action: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.problem = "";
    try {
      await action();
      this.mode = "view";
    } catch (error) {
      this.problem = (error as Error).message;
    } finally {
      this.busy = false;
    }
  }
}
