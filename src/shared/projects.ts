// Project shapes shared by the server routes and the UI client.
import { z } from "zod";

export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  dir: z.string(),
  dbBacked: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;

export const createProjectBodySchema = z.strictObject({ dir: z.string().min(1) });

/** POST /api/projects/:id/trust. */
export const trustBodySchema = z.strictObject({ trusted: z.boolean() });

const trustItemKindSchema = z.enum(["gate", "action", "mcpServer", "sandbox"]);

/** An entry of `.app.json` that waits for trust: an `allow` gate, an action, an MCP server, a sandbox loosening. */
export const trustItemSchema = z.object({ kind: trustItemKindSchema, id: z.string(), summary: z.string() });
export type TrustItemView = z.infer<typeof trustItemSchema>;

export const trustChangeSchema = z.object({
  kind: trustItemKindSchema,
  id: z.string(),
  change: z.enum(["added", "changed", "removed"]),
  summary: z.string().optional(),
});

/** GET (and POST) /api/projects/:id/trust: the state the This project page shows. */
export const trustStateSchema = z.object({
  trusted: z.boolean(),
  /** VS Code's Restricted Mode: the workspace is not trusted in the editor, so nothing of the project's runs. */
  restricted: z.boolean(),
  /** The user trusted the project, and entries were added or changed since (a pull, an edit outside Parley). */
  lapsed: z.boolean(),
  /** What trust enables: the repository's loosening gates, its actions, its MCP servers. */
  covers: z.array(trustItemSchema),
  /** Since the trust was given (empty unless `lapsed`). */
  changes: z.array(trustChangeSchema),
});
export type TrustState = z.infer<typeof trustStateSchema>;
