// Whether a model is offered tools, and how a server says that a model cannot take them. Servers that
// run models without tool support refuse the whole request when it carries `tools`: Ollama answers 400
// "… does not support tools", vLLM without --enable-auto-tool-choice 400 '"auto" tool choice requires
// --enable-auto-tool-choice and --tool-call-parser to be set', llama.cpp's server "tools param requires
// --jinja flag", LiteLLM "… does not support parameters: ['tools']", the gateway 404 "No endpoints found
// that support tool use". Pure, so every wording is unit-tested.
import type { CatalogModel } from "../shared/gateway";
import type { ModelEntry } from "../shared/settings";

/**
 * Tools go to a model unless its `models` entry says `tools: false` (the user's choice, or remembered
 * after the model refused them), or the server's catalog lists the parameters the model supports and
 * `tools` is not among them. An entry's `tools: true` wins over the catalog.
 */
export function modelTakesTools(entry: Pick<ModelEntry, "tools"> | undefined, listed?: CatalogModel): boolean {
  if (typeof entry?.tools === "boolean") return entry.tools;
  const supported = listed?.supportedParameters;
  return supported === undefined || supported.includes("tools");
}

const REFUSALS = [
  /\bdoes not support tools\b/i,
  /\bdoes not support (?:tool|function)[ _-]?(?:use|calling|calls)\b/i,
  /"auto" tool choice requires --enable-auto-tool-choice/i,
  /\btools? param(?:eter)?s? requires? --jinja\b/i,
  /\bdoes not support parameters\b.{0,40}\btools\b/i,
  /\bno endpoints found that support tool use\b/i,
  /\b(?:tools|tool use|tool calling|function calling) (?:is|are) not supported\b/i,
];

/** Whether a failed request's message says the model cannot take the `tools` it was sent. */
export function refusesTools(message: string): boolean {
  return REFUSALS.some((pattern) => pattern.test(message));
}

/** What the chat says, once, when a model refused tools and the turn went on without them. */
export function toolsRefusedNotice(modelId: string, serverMessage: string): string {
  return (
    `${modelId} cannot use tools (the server said: ${serverMessage}), so this message was sent again without ` +
    `them, and ${modelId} gets no tools from now on. To offer them again: Settings, Providers, Model prices and kinds.`
  );
}
