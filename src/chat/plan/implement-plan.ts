// "Implement this plan" (Plan mode): the chat leaves the Plan agent for the project's default agent,
// and the answer that holds the plan is pinned, so every later turn sends it (see PlanPins). The
// client then sends the next message ("Implement this plan.") through the usual stream route.
import { conflict, invalid, notFound } from "../../platform/app-error";
import type { Chat, Message } from "../../shared/chats";
import { builtInAgent } from "../../projects/built-in-agents";
import type { ProjectRegistry } from "../../projects/project-registry";
import type { SettingsService } from "../../settings/settings-service";
import type { ChatService } from "../chat-service";
import type { ActiveTurns } from "../turn-broadcast";
import type { PlanPins } from "./plan-pins";

export type ImplementPlanDeps = {
  chatService: ChatService;
  messages: { byId(id: string): Message | undefined };
  planPins: PlanPins;
  activeTurns: ActiveTurns;
  projects: ProjectRegistry;
  settings: SettingsService;
};

/** 404 for a message of another chat; 400 for anything but a finished answer; 409 while the chat answers. */
export async function implementPlan(deps: ImplementPlanDeps, chatId: string, messageId: string): Promise<Chat> {
  const chat = deps.chatService.get(chatId);
  const message = deps.messages.byId(messageId);
  if (!message || message.chatId !== chat.id) throw notFound(`no message ${messageId} in this chat`);
  if (message.role !== "assistant" || message.status !== "complete" || message.content.trim() === "")
    throw invalid("only a finished answer can be implemented as a plan");
  if (deps.activeTurns.isActive(chat.id)) throw conflict("this chat is answering; implement the plan when it is done");
  const project = deps.projects.byId(chat.projectId);
  // The default agent implements; a project whose default is a built-in (Plan) has none that can.
  const snapshot = await deps.settings.snapshot(project);
  const fallback = builtInAgent(snapshot.settings.defaultAgent);
  if (fallback)
    throw conflict(
      `this project's default agent is ${fallback.name}, which only plans: choose the agent to implement with in the chat's agent picker`,
    );
  deps.planPins.pin(chat.id, message.id);
  return deps.chatService.update(chat.id, { agent: null }, project);
}
