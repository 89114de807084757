// The gateway's text models for the model picker, or why they could not be read.
import type { CatalogModel } from "$shared/gateway";
import type { ApiClient } from "../api/client";

export class ModelsState {
  list = $state.raw<CatalogModel[]>([]);
  error = $state<string | undefined>();
  /** The first answer (a list or an error) has come: until then the picker says it is loading. */
  loaded = $state(false);

  constructor(private readonly api: ApiClient) {}

  async load(): Promise<void> {
    try {
      this.list = await this.api.call("GET /api/providers/gateway/models", { query: { slice: "text" } });
      this.error = undefined;
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.loaded = true;
    }
  }
}
