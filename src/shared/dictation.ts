// Dictation shapes shared by the server and the UI: what POST /api/dictation/transcribe answers.
import { z } from "zod";
import { usageSchema } from "./usage";

/** The most audio one transcription takes (the transcription endpoint's own limit). */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

export const transcriptionRouteSchema = z.enum(["transcriptions", "chat"]);

export const dictationResultSchema = z.object({
  text: z.string(),
  model: z.string(),
  route: transcriptionRouteSchema,
  /** What this transcription cost; it is also in the usage ledger (GET /api/usage). */
  usage: usageSchema,
});
export type DictationResult = z.infer<typeof dictationResultSchema>;
