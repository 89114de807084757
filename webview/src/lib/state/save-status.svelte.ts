// The status line under a setting that saves on change: Saving…, Saved, or what went wrong.
export class SaveStatus {
  text = $state("");
  failed = $state(false);

  async run(save: () => Promise<unknown>): Promise<boolean> {
    this.text = "Saving…";
    this.failed = false;
    try {
      await save();
      this.text = "Saved";
      return true;
    } catch (error) {
      this.text = `Not saved: ${(error as Error).message}`;
      this.failed = true;
      return false;
    }
  }
}
