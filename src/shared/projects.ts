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
