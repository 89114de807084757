// An MCP prompt picked in the @ popup, on its way to the composer: its arguments' form (shown when it
// has any, or when getting its text failed), the values typed, and the request for its text.
import type { ApiClient } from "../api/client";
import { missingMessage, promptArguments, type PromptPick } from "../mcp-prompt";

export class PromptPickState {
  pick = $state.raw<PromptPick | undefined>();
  values = $state<Record<string, string>>({});
  busy = $state(false);
  /** Why the text could not be had, in words (a required argument left empty, the server's 400). */
  error = $state<string | undefined>();
  private controller: AbortController | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly projectDir: () => string,
  ) {}

  /** The form shows for a prompt with arguments, and for one whose text could not be had. */
  get open(): boolean {
    return this.pick !== undefined && (this.pick.arguments.length > 0 || this.error !== undefined);
  }

  begin(pick: PromptPick): void {
    this.cancel();
    this.pick = pick;
    this.values = {};
  }

  /**
   * Asks the server for the prompt's text with the values given; the pick and its text, or undefined
   * (the form then says why, or another pick replaced this one meanwhile).
   */
  async submit(): Promise<{ pick: PromptPick; text: string } | undefined> {
    const pick = this.pick;
    if (!pick || this.busy) return undefined;
    const args = promptArguments(pick.arguments, this.values);
    if ("missing" in args) {
      this.error = missingMessage(args.missing);
      return undefined;
    }
    const controller = (this.controller = new AbortController());
    this.busy = true;
    this.error = undefined;
    try {
      const { text } = await this.api.call(
        "POST /api/mcp/servers/:id/prompts/:name",
        {
          params: { id: pick.serverId, name: pick.name },
          query: { projectDir: this.projectDir() },
          body: { arguments: args.arguments },
        },
        { signal: controller.signal },
      );
      if (this.pick !== pick) return undefined;
      this.pick = undefined;
      return { pick, text };
    } catch (error) {
      if (this.pick === pick && !controller.signal.aborted)
        this.error = `Could not get the prompt: ${(error as Error).message}`;
      return undefined;
    } finally {
      if (this.controller === controller) {
        this.controller = undefined;
        this.busy = false;
      }
    }
  }

  cancel(): void {
    this.controller?.abort();
    this.controller = undefined;
    this.busy = false;
    this.pick = undefined;
    this.values = {};
    this.error = undefined;
  }
}
