// App-wide change events on GET /api/events, so every open UI stays in sync. Each is defined once.
import { z } from "zod";

export const appEventSchemas = {
  /** `keys`: the top-level keys a change touched, when it is known (a view that shows others may skip it). */
  "settings.changed": z.object({
    scope: z.enum(["app", "project"]),
    projectId: z.string().optional(),
    keys: z.array(z.string()).optional(),
  }),
  "projects.changed": z.object({ projectId: z.string() }),
  "prompts.changed": z.object({ scope: z.enum(["app", "project"]), projectId: z.string().optional() }),
  "chats.changed": z.object({ projectId: z.string(), chatId: z.string().optional() }),
  "accounts.changed": z.object({}),
  /** A project's MCP servers changed state (started, ready, failed, trusted…): the status page reloads. */
  "mcp.changed": z.object({ projectId: z.string().optional() }),
} as const;

export type AppEventName = keyof typeof appEventSchemas;
export type AppEvent = {
  [K in AppEventName]: { type: K; data: z.infer<(typeof appEventSchemas)[K]> };
}[AppEventName];
