// Plan mode in one chat view: whether the chat plans, which answer offers "Implement this plan", and
// that action (the server switches the chat to the default agent and pins the plan; the view then
// sends "Implement this plan."). Given to the transcript's answers through a Svelte context, so an
// answer needs no extra props to offer it.
import { getContext, setContext } from "svelte";
import type { AgentEntry } from "$shared/agents";
import { IMPLEMENT_PLAN_MESSAGE } from "$shared/plan-mode";
import type { ApiClient } from "../api/client";
import { isPlanAgent, planAnswerId } from "../plan-mode";
import type { ChatSession } from "./chat-session.svelte";

export class PlanMode {
  /** The answer being handed on, while it is. */
  implementing = $state<string | undefined>();
  /** Why handing an answer on failed, and which. */
  failure = $state.raw<{ messageId: string; message: string } | undefined>();

  constructor(
    private readonly api: ApiClient,
    private readonly session: ChatSession,
    /** The agent the chat runs as (its own pick, else the project's default). */
    private readonly agent: () => AgentEntry | undefined,
    /** The model picked in the composer, when it differs from the chat's. */
    private readonly modelToSend: () => string | undefined,
  ) {}

  /** Whether "Implement this plan" goes under this answer. */
  offersFor(messageId: string): boolean {
    if (this.session.streaming || !isPlanAgent(this.agent())) return false;
    return planAnswerId(this.session.chat?.messages ?? []) === messageId;
  }

  async implement(messageId: string): Promise<void> {
    if (this.implementing) return;
    this.implementing = messageId;
    this.failure = undefined;
    try {
      const chat = await this.api.call("POST /api/chats/:id/implement-plan", {
        params: { id: this.session.chatId },
        body: { messageId },
      });
      if (this.session.chat) this.session.chat = { ...this.session.chat, ...chat };
    } catch (error) {
      this.failure = { messageId, message: `The plan could not be handed on: ${(error as Error).message}` };
      return;
    } finally {
      this.implementing = undefined;
    }
    // The chat runs as the default agent now: the answer offers nothing more, the message goes as any other.
    await this.session.send(IMPLEMENT_PLAN_MESSAGE, this.modelToSend());
  }
}

const KEY = Symbol("plan-mode");

export function setPlanMode(mode: PlanMode): void {
  setContext(KEY, mode);
}

/** The chat view's plan mode; undefined outside one (an answer shown elsewhere offers nothing). */
export function getPlanMode(): PlanMode | undefined {
  return getContext<PlanMode | undefined>(KEY);
}
