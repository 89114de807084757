// Dictation: picks the route for the speech-to-text model (multipart transcription for the
// transcription slice, chat completions with input_audio for audio-input chat models).
import { invalid } from "../core/app-error";
import type { JsonObject } from "../core/settings-merge";
import { isPlainObject } from "../core/settings-merge";
import type { CatalogModel } from "../shared/gateway";
import { transcribeMultipart, transcribeWithChat, type Audio } from "../providers/gateway/transcription";
import type { ConnectionResolver } from "./connection-resolver";
import type { ModelCatalog } from "./model-catalog";

export type TranscriptionRoute = "transcriptions" | "chat";

/** Which endpoint a model takes, from the two catalog slices. Pure. */
export function transcriptionRoute(modelId: string, transcriptionSlice: CatalogModel[], textSlice: CatalogModel[]): TranscriptionRoute | undefined {
  if (transcriptionSlice.some((m) => m.id === modelId)) return "transcriptions";
  const chatModel = textSlice.find((m) => m.id === modelId);
  return chatModel?.inputModalities.includes("audio") ? "chat" : undefined;
}

export class Dictation {
  constructor(
    private readonly connections: ConnectionResolver,
    private readonly catalog: ModelCatalog,
  ) {}

  async transcribe(settings: JsonObject, audio: Audio, requestedModel?: string): Promise<{ text: string; model: string; route: TranscriptionRoute }> {
    const configured = isPlainObject(settings.dictation) && typeof settings.dictation.modelId === "string" ? settings.dictation.modelId : undefined;
    const model = requestedModel ?? configured;
    if (!model) throw invalid("choose a speech-to-text model on the Dictation page first");
    const { connection } = await this.connections.forModel(settings, model);
    const [transcription, text] = await Promise.all([this.catalog.list("transcription", connection), this.catalog.list("text", connection)]);
    const route = transcriptionRoute(model, transcription, text);
    if (!route) throw invalid(`"${model}" is neither a transcription model nor a chat model that takes audio`);
    const transcript = route === "transcriptions" ? await transcribeMultipart(connection, model, audio) : await transcribeWithChat(connection, model, audio);
    return { text: transcript, model, route };
  }
}
