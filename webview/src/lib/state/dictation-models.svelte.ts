// The models dictation can use, from both catalog slices: transcription models, and chat models
// of the text slice that take audio input (sent through chat completions). Loaded once on demand.
import type { CatalogModel } from "$shared/gateway";
import type { AppEvent } from "$shared/app-events";
import type { ApiClient } from "../api/client";

export class DictationModelsState {
  transcription = $state.raw<CatalogModel[]>([]);
  audioChat = $state.raw<CatalogModel[]>([]);
  loaded = $state(false);
  error = $state<string | undefined>();
  transcriptionIds = $derived(new Set(this.transcription.map((m) => m.id)));
  private loading: Promise<void> | undefined;

  constructor(private readonly api: ApiClient) {}

  load(): Promise<void> {
    this.loading = (async () => {
      try {
        const [transcription, text] = await Promise.all([
          this.api.call("GET /api/providers/gateway/models", { query: { slice: "transcription" } }),
          this.api.call("GET /api/providers/gateway/models", { query: { slice: "text" } }),
        ]);
        const ids = new Set(transcription.map((m) => m.id));
        this.transcription = transcription;
        this.audioChat = text.filter((m) => m.inputModalities.includes("audio") && !ids.has(m.id));
        this.error = undefined;
      } catch (error) {
        this.error = (error as Error).message;
      } finally {
        this.loaded = true;
      }
    })();
    return this.loading;
  }

  /** Loads the lists unless a load already ran or runs; never throws (a failed load leaves `error`). */
  ensure(): Promise<void> {
    return this.loading ?? this.load();
  }

  find(id: string): CatalogModel | undefined {
    return this.transcription.find((m) => m.id === id) ?? this.audioChat.find((m) => m.id === id);
  }

  /** The lists depend on the gateway connection and on the models the user marked as transcription models. */
  onAppEvent(event: AppEvent): void {
    if (event.type === "settings.changed" && event.data.scope === "app") void this.load();
  }
}
