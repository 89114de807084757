// The model list a slice shows: the text slice as the server lists it, the transcription slice
// made honest for servers that ignore the gateway's filter (see core/model-slices).
import type { ResolvedSettings } from "../shared/settings";
import { modelEntries } from "./model-entries";
import { transcriptionSlice } from "./model-slices";
import type { GatewayConnection } from "./http";
import type { CatalogModel, ModelSlice } from "../shared/gateway";
import type { ModelCatalog } from "./model-catalog";

export async function modelsForSlice(
  catalog: ModelCatalog,
  slice: ModelSlice,
  connection: GatewayConnection,
  settings: ResolvedSettings,
): Promise<CatalogModel[]> {
  if (slice === "text") return catalog.list("text", connection);
  const [transcription, text] = await Promise.all([
    catalog.list("transcription", connection),
    catalog.list("text", connection),
  ]);
  return transcriptionSlice({ transcription, text }, modelEntries(settings));
}
