// Dictation: picks the route for the speech-to-text model (multipart transcription for
// transcription models, chat completions with input_audio for audio-input chat models).
import type { ResolvedSettings } from "../shared/settings";
import { invalid } from "../core/app-error";
import { modelEntries } from "../core/model-entries";
import { transcriptionRoute, type TranscriptionRoute } from "../core/model-slices";
import { transcribeMultipart, transcribeWithChat, type Audio } from "../providers/gateway/transcription";
import type { ConnectionResolver } from "./connection-resolver";
import type { ModelCatalog } from "./model-catalog";

export type { TranscriptionRoute };

export class Dictation {
  constructor(
    private readonly connections: ConnectionResolver,
    private readonly catalog: ModelCatalog,
  ) {}

  async transcribe(settings: ResolvedSettings, audio: Audio, requestedModel?: string): Promise<{ text: string; model: string; route: TranscriptionRoute }> {
    const configured = settings.dictation?.modelId;
    const model = requestedModel ?? configured;
    if (!model) throw invalid("choose a speech-to-text model on the Dictation page first");
    const { connection } = await this.connections.forModel(settings, model);
    const entries = modelEntries(settings);
    // A model the user marked needs no list: self-hosted servers' lists rarely say what a model does.
    const marked = entries.some((e) => e.id === model && e.kind === "transcription");
    const [transcription, text] = marked ? [[], []] : await Promise.all([this.catalog.list("transcription", connection), this.catalog.list("text", connection)]);
    const route = transcriptionRoute(model, { transcription, text }, entries);
    if (!route) {
      throw invalid(
        `"${model}" is neither a transcription model nor a chat model that takes audio; if it is a speech-to-text model, mark it as one under Settings, Providers`,
      );
    }
    const transcript = route === "transcriptions" ? await transcribeMultipart(connection, model, audio) : await transcribeWithChat(connection, model, audio);
    return { text: transcript, model, route };
  }
}
