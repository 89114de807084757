// The context meter of one turn (contract 7.3): how full the model's window is, layer by layer, for
// the request about to be sent and after each step. Estimates come from the tokenizer; once the
// upstream has reported `prompt_tokens` for a request, later figures are scaled by how far the
// estimate was off (the tokenizer is exact for some vendors only) and say `source: "upstream"`.
import type { ResolvedSettings } from "../../shared/settings";
import type { UpstreamMessage } from "../transcript";
import type { ContextReport } from "../../shared/context";
import { measureContext, scaleLayers, type ContextLayer } from "./context-layers";
import type { TokenCounter } from "./token-count";

export const DEFAULT_CONTEXT_WINDOW = 128_000;

export type { ContextReport };

/** The model's window: the catalog's, else the user's `models` entry, else `chat.contextWindow`. */
export function contextWindow(
  settings: ResolvedSettings,
  modelId: string,
  catalogContextLength: number | null | undefined,
): number {
  if (catalogContextLength && catalogContextLength > 0) return catalogContextLength;
  const entry = settings.models?.find((m) => m.id === modelId);
  return entry?.contextLength ?? settings.chat?.contextWindow ?? DEFAULT_CONTEXT_WINDOW;
}

/** The layer a message the loop appends counts under. */
function appendedLayer(message: UpstreamMessage): ContextLayer {
  return message.role === "tool" ? "toolOutputs" : "history";
}

export class ContextMeter {
  /** Upstream `prompt_tokens` over the estimate of the same request; 1 until a step reports. */
  private calibration = 1;
  private calibrated = false;
  private lastEstimate = 0;

  /** `layers[i]` is the layer of the turn's i-th initial message; messages appended later are placed by role. */
  constructor(
    private readonly counter: TokenCounter,
    readonly limit: number,
    private readonly layers: ContextLayer[],
  ) {}

  /** The request as it stands (the tool definitions included). */
  measure(messages: readonly UpstreamMessage[], tools: readonly unknown[]): ContextReport {
    for (let i = this.layers.length; i < messages.length; i++) this.layers.push(appendedLayer(messages[i]!));
    const measured = measureContext(
      this.counter,
      messages.map((message, i) => ({ message, layer: this.layers[i]! })),
      tools,
    );
    this.lastEstimate = measured.used;
    const servers = measured.mcpServers.length > 0;
    if (!this.calibrated)
      return {
        used: measured.used,
        layers: measured.layers,
        limit: this.limit,
        source: "estimate",
        ...(servers ? { mcpServers: measured.mcpServers } : {}),
      };
    const used = Math.round(measured.used * this.calibration);
    const scale = (tokens: number) => Math.round(tokens * this.calibration);
    return {
      used,
      limit: this.limit,
      layers: scaleLayers(measured.layers, used),
      source: "upstream",
      ...(servers ? { mcpServers: measured.mcpServers.map((s) => ({ ...s, tokens: scale(s.tokens) })) } : {}),
    };
  }

  /** After a compaction rebuilt the request: the layer of each of its messages. */
  relayer(layers: readonly ContextLayer[]): void {
    this.layers.splice(0, this.layers.length, ...layers);
  }

  /** The upstream's count for the request last measured. */
  reconcile(promptTokens: number): void {
    if (!(promptTokens > 0) || this.lastEstimate === 0) return;
    this.calibration = promptTokens / this.lastEstimate;
    this.calibrated = true;
  }
}
