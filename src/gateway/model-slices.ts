// Which models are speech-to-text models, and which endpoint each one takes. The gateway filters
// `/models?output_modalities=transcription` for us; self-hosted servers (vLLM, Ollama, LiteLLM,
// `transformers serve`) ignore the filter and list every chat model, mostly without modalities.
// So a model counts as a transcription model only when the filter visibly worked (the model is in
// that answer but not in the plain list), when it declares transcription output, or when the user
// marked it (`models[]` entry with `kind:"transcription"`); an audio-input chat model is a
// dictation model through chat completions. Pure.
import type { CatalogModel } from "../shared/gateway";

/** The part of a `models[]` settings entry these rules read. */
export type ModelSettingsEntry = { id: string; label?: string; kind?: "chat" | "transcription" };

export type TranscriptionRoute = "transcriptions" | "chat";

/** What the server listed: the answer to the transcription filter, and the plain (text) list. */
export type ListedModels = { transcription: readonly CatalogModel[]; text: readonly CatalogModel[] };

const outputsTranscription = (m: CatalogModel) => m.outputModalities.includes("transcription");
const takesAudio = (m: CatalogModel) => m.inputModalities.includes("audio");

/**
 * The endpoint for `modelId`: multipart `/audio/transcriptions` for a transcription model, chat
 * completions with an audio part for an audio-input chat model, and undefined for anything else:
 * a chat-only model is never sent to `/audio/transcriptions`. A `kind` the user set wins.
 */
export function transcriptionRoute(
  modelId: string,
  listed: ListedModels,
  entries: readonly ModelSettingsEntry[],
): TranscriptionRoute | undefined {
  const kind = entries.find((e) => e.id === modelId)?.kind;
  if (kind === "transcription") return "transcriptions";
  const inText = listed.text.filter((m) => m.id === modelId);
  const inSlice = listed.transcription.filter((m) => m.id === modelId);
  const filteredIn = inSlice.length > 0 && inText.length === 0;
  if (kind !== "chat" && (filteredIn || [...inSlice, ...inText].some(outputsTranscription))) return "transcriptions";
  if ([...inSlice, ...inText].some(takesAudio)) return "chat";
  return undefined;
}

/**
 * The honest transcription slice: the models of the filtered answer that have a route (all of it
 * when the server filtered; only audio-input and transcription models when it ignored the filter),
 * then each model the user marked that the answer does not show.
 */
export function transcriptionSlice(listed: ListedModels, entries: readonly ModelSettingsEntry[]): CatalogModel[] {
  const out: CatalogModel[] = [];
  const shown = new Set<string>();
  for (const model of listed.transcription) {
    if (shown.has(model.id) || !transcriptionRoute(model.id, listed, entries)) continue;
    shown.add(model.id);
    out.push(model);
  }
  for (const entry of entries) {
    if (entry.kind !== "transcription" || shown.has(entry.id)) continue;
    shown.add(entry.id);
    // The user's word is all there is: no name, size or price is invented.
    out.push({
      id: entry.id,
      label: entry.label || entry.id,
      contextLength: null,
      pricing: {},
      inputModalities: ["audio"],
      outputModalities: ["transcription"],
    });
  }
  return out;
}
