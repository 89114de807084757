// Plan mode (issue 37, item 11): the built-in "Plan" agent reads, asks and answers with a plan; "Implement
// this plan" hands the chat back to the default agent with that plan pinned. What both sides name.
import { z } from "zod";

/** The built-in planning agent's name: reserved, a project cannot define an agent of its own with it. */
export const PLAN_AGENT_NAME = "Plan";

/** What "Implement this plan" sends as the next message, once the chat runs as the default agent. */
export const IMPLEMENT_PLAN_MESSAGE = "Implement this plan.";

/** POST /api/chats/:id/implement-plan: the answer (of this chat) that holds the plan. */
export const implementPlanBodySchema = z.strictObject({ messageId: z.string().min(1).max(200) });
export type ImplementPlanBody = z.infer<typeof implementPlanBodySchema>;
