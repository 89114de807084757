// The built-in defaults layer: the bottom of defaults < app < project. Typed by the settings schema,
// so a default can only be a value the schema accepts.
import type { ResolvedSettings } from "../shared/settings";
import { HOSTED_GATEWAY_BASE_URL } from "../shared/gateway";

export const DEFAULT_GATEWAY_BASE_URL = HOSTED_GATEWAY_BASE_URL;
export const DEFAULT_GATEWAY_AUTH_URL = "https://openrouter.ai/auth";
export const DEFAULT_REFERER_URL = "http://127.0.0.1/parley";
export const APP_NAME = "Parley";

export type DefaultsOptions = { gatewayBaseUrl?: string };

export function builtInDefaults(options: DefaultsOptions = {}): ResolvedSettings {
  return {
    chat: { defaultPromptStyle: "none", enterInsertsNewline: false, autoRetryFailedSends: true },
    skills: true,
    agentFiles: true,
    agentFileNames: ["AGENTS.md"],
    tags: [],
    tools: {},
    allowedHosts: [],
    refererUrl: DEFAULT_REFERER_URL,
    providers: [
      {
        id: "gateway",
        provider: "gateway",
        label: "Gateway",
        baseUrl: options.gatewayBaseUrl ?? DEFAULT_GATEWAY_BASE_URL,
        authMode: "apiKey",
      },
    ],
    models: [],
  } satisfies ResolvedSettings;
}
