// Headers on every upstream request: the Bearer key (when there is one) and the attribution headers, which
// `model.headers` (and a provider's `headers`) may override per request.
import { APP_NAME } from "../settings/settings-defaults";

export type HeaderInputs = {
  /** None or empty: no `Authorization` header at all (a keyless self-hosted server). */
  apiKey?: string;
  refererUrl: string;
  providerHeaders?: Record<string, string>;
  modelHeaders?: Record<string, string>;
};

export function upstreamHeaders(inputs: HeaderInputs): Record<string, string> {
  const headers: Record<string, string> = {
    ...(inputs.apiKey ? { authorization: `Bearer ${inputs.apiKey}` } : {}),
    "http-referer": inputs.refererUrl,
    "x-gateway-title": APP_NAME,
    // Deprecated alias of X-Gateway-Title, still sent: some paths drop the newer header.
    "x-title": APP_NAME,
  };
  // Header names are case-insensitive: an override replaces whatever spelling came before it.
  for (const overrides of [inputs.providerHeaders, inputs.modelHeaders]) {
    for (const [name, value] of Object.entries(overrides ?? {})) headers[name.toLowerCase()] = value;
  }
  return headers;
}
