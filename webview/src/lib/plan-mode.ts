// Plan mode's rules in the chat view (issue 37, item 11). Pure, so they are unit-tested apart from
// the components.
import type { AgentEntry } from "$shared/agents";
import type { Message } from "$shared/chats";
import { PLAN_AGENT_NAME } from "$shared/plan-mode";

/** Whether the agent a chat runs as is Parley's built-in Plan (a project cannot define one of that name). */
export function isPlanAgent(agent: AgentEntry | undefined): boolean {
  return agent?.builtIn === true && agent.name === PLAN_AGENT_NAME;
}

/**
 * The answer that offers "Implement this plan": the chat's last message, when it is a finished answer
 * with text (a turn still running, stopped, cut off or failed offers none).
 */
export function planAnswerId(messages: readonly Message[]): string | undefined {
  const last = messages.at(-1);
  return last?.role === "assistant" && last.status === "complete" && last.content.trim() !== "" ? last.id : undefined;
}
