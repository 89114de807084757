// GET {base}/models (text slice) and ?output_modalities=transcription, normalised for Parley's API.
import type { CatalogModel, ModelSlice } from "../shared/gateway";
import { readJson, type GatewayConnection } from "./http";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export function modelsPath(slice: ModelSlice): string {
  return slice === "transcription" ? "/models?output_modalities=transcription" : "/models";
}

export function normalizeModel(raw: Json): CatalogModel | undefined {
  if (typeof raw.id !== "string" || !raw.id) return undefined;
  const architecture = isObject(raw.architecture) ? raw.architecture : {};
  const pricing: Record<string, number> = {};
  for (const [name, value] of Object.entries(isObject(raw.pricing) ? raw.pricing : {})) {
    const price = typeof value === "number" ? value : Number(value);
    if (Number.isFinite(price)) pricing[name] = price;
  }
  return {
    id: raw.id,
    label: typeof raw.name === "string" && raw.name ? raw.name : raw.id,
    contextLength: typeof raw.context_length === "number" ? raw.context_length : null,
    pricing,
    inputModalities: strings(architecture.input_modalities),
    outputModalities: strings(architecture.output_modalities),
    // Only where the server lists them: a list without them says nothing about what a model takes.
    ...(Array.isArray(raw.supported_parameters) ? { supportedParameters: strings(raw.supported_parameters) } : {}),
  };
}

export async function fetchModels(connection: GatewayConnection, slice: ModelSlice): Promise<CatalogModel[]> {
  const body = await readJson(connection, modelsPath(slice));
  const data = isObject(body) && Array.isArray(body.data) ? body.data : [];
  return data
    .filter(isObject)
    .map(normalizeModel)
    .filter((m): m is CatalogModel => m !== undefined);
}
