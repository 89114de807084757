// Dictation: picks the route for the speech-to-text model (multipart transcription for
// transcription models, chat completions with input_audio for audio-input chat models), and puts
// what the transcription cost in the usage ledger, as a chat turn's cost goes there.
import type { ResolvedSettings } from "../shared/settings";
import type { DictationResult } from "../shared/dictation";
import { invalid } from "../platform/app-error";
import { modelEntries, userPricing } from "../gateway/model-entries";
import { transcriptionRoute, type TranscriptionRoute } from "../gateway/model-slices";
import { transcriptionUsage } from "./transcription-usage";
import { effectivePricing, type Pricing } from "../chat/usage";
import { transcribeMultipart, transcribeWithChat, type Audio } from "../gateway/transcription";
import type { UsageLedger } from "../chat/usage-ledger";
import type { ConnectionResolver } from "../gateway/connection-resolver";
import type { Logger } from "../platform/logger";
import type { ModelCatalog } from "../gateway/model-catalog";

export type { TranscriptionRoute };

export class Dictation {
  constructor(
    private readonly connections: ConnectionResolver,
    private readonly catalog: ModelCatalog,
    private readonly ledger: UsageLedger,
    private readonly log: Logger,
  ) {}

  async transcribe(settings: ResolvedSettings, audio: Audio, requestedModel?: string): Promise<DictationResult> {
    const configured = settings.dictation?.modelId;
    const model = requestedModel ?? configured;
    if (!model) throw invalid("choose a speech-to-text model on the Dictation page first");
    const { connection } = await this.connections.forModel(settings, model);
    const entries = modelEntries(settings);
    // A model the user marked needs no list: self-hosted servers' lists rarely say what a model does.
    const marked = entries.some((e) => e.id === model && e.kind === "transcription");
    const [transcription, text] = marked
      ? [[], []]
      : await Promise.all([this.catalog.list("transcription", connection), this.catalog.list("text", connection)]);
    const route = transcriptionRoute(model, { transcription, text }, entries);
    if (!route) {
      throw invalid(
        `"${model}" is neither a transcription model nor a chat model that takes audio; if it is a speech-to-text model, mark it as one under Settings, Providers`,
      );
    }
    const heard =
      route === "transcriptions"
        ? await transcribeMultipart(connection, model, audio)
        : await transcribeWithChat(connection, model, audio);
    const catalogPricing = this.catalog.find(model, connection.baseUrl)?.pricing as Pricing | undefined;
    const pricing = effectivePricing(userPricing(entries, model), catalogPricing);
    const usage = transcriptionUsage(heard.usage, heard.text, pricing, (field, value) =>
      this.log.warn(
        `the gateway reported an out-of-range ${field} for a transcription (${String(value).slice(0, 40)}); clamped`,
      ),
    );
    this.ledger.recordTranscription(model, route, usage);
    return { text: heard.text, model, route, usage };
  }
}
