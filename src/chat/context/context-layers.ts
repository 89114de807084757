// What fills a request's context, layer by layer (contract 7.3): the system messages (the prompt and
// the environment), instructions (agent files, skills), tool definitions, referenced files, the
// conversation, tool outputs, and the running summary. Pure: the caller says which layer each message
// belongs to, since only it knows where each came from.
import type { z } from "zod";
import type { UpstreamMessage } from "../../gateway/chat-completions";
import { contextLayersSchema } from "../../shared/context";
import type { TokenCounter } from "./token-count";

/** The layers in the order a request is built: the meter's schema is the one list of them. */
export const CONTEXT_LAYERS = contextLayersSchema.keyof().options;
export type ContextLayers = z.infer<typeof contextLayersSchema>;
export type ContextLayer = keyof ContextLayers;

/** The layer of a stored transcript row: injected files and MCP resources, tool results, the rest. */
export function rowLayer(row: { role: string; meta?: { kind?: string } | null }): ContextLayer {
  if (row.role === "tool") return "toolOutputs";
  if (row.meta?.kind === "file" || row.meta?.kind === "resource") return "files";
  return "history";
}

/** A message of the request with the layer it counts under. */
export type LayeredMessage = { message: UpstreamMessage; layer: ContextLayer };

export type McpShare = { server: string; tokens: number };
export type ContextMeasure = { used: number; layers: ContextLayers; mcpServers: McpShare[] };

/** The tool definitions of each MCP server (`mcp__<server>__<tool>`), largest first. */
export function mcpShares(counter: TokenCounter, tools: readonly unknown[]): McpShare[] {
  const shares = new Map<string, number>();
  for (const tool of tools) {
    const name = (tool as { function?: { name?: unknown } }).function?.name;
    const server = typeof name === "string" ? /^mcp__(.+?)__/.exec(name)?.[1] : undefined;
    if (server) shares.set(server, (shares.get(server) ?? 0) + counter.countTools([tool]));
  }
  return [...shares].map(([server, tokens]) => ({ server, tokens })).sort((a, b) => b.tokens - a.tokens);
}

export function emptyLayers(): ContextLayers {
  return { system: 0, instructions: 0, tools: 0, files: 0, history: 0, toolOutputs: 0, summary: 0 };
}

/** Tokens of each layer and in all; `tools` are the tool definitions as sent. */
export function measureContext(
  counter: TokenCounter,
  messages: readonly LayeredMessage[],
  tools: readonly unknown[],
): ContextMeasure {
  const layers = emptyLayers();
  for (const { message, layer } of messages) layers[layer] += counter.countMessage(message);
  if (tools.length > 0) layers.tools = counter.countTools(tools);
  return { used: sumLayers(layers), layers, mcpServers: mcpShares(counter, tools) };
}

export function sumLayers(layers: ContextLayers): number {
  let sum = 0;
  for (const layer of CONTEXT_LAYERS) sum += layers[layer];
  return sum;
}

/**
 * The layers scaled so they add up to `used` (the upstream's own `prompt_tokens`): the tokenizer is
 * exact for some vendors only, so the upstream's total wins and the layers keep their shares.
 */
export function scaleLayers(layers: ContextLayers, used: number): ContextLayers {
  const estimated = sumLayers(layers);
  if (estimated === 0) return { ...layers, history: used };
  const scaled = emptyLayers();
  let given = 0;
  let largest: ContextLayer = "history";
  for (const layer of CONTEXT_LAYERS) {
    scaled[layer] = Math.floor((layers[layer] * used) / estimated);
    given += scaled[layer];
    if (layers[layer] > layers[largest]) largest = layer;
  }
  scaled[largest] += used - given; // the rounding remainder
  return scaled;
}
