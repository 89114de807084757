// A failed turn's error in words with its way out. Errors reach the UI as a status and the
// upstream's (or Parley's) own message, such as "400: vendor/x is not a valid model ID": that says
// what broke to a developer, not what to do. Each known kind gets a sentence and a hint; the
// original stays beside them as the details line, since its exact words can matter (a support
// ticket, a gateway-specific limit). Pure, so every mapping is unit-tested.

export type ErrorInput = { message: string; status?: number; code?: string };

export type ErrorWords = {
  /** What happened, in words. */
  title: string;
  /** What to do about it. */
  hint: string;
  /** The error as it came (status and message), when the title does not already say it all. */
  details?: string;
  /** Offer Settings, Providers (keys, the gateway's address). */
  settings: boolean;
  /** Offer another model. */
  model: boolean;
};

/** The model an upstream message names as unknown: "x is not a valid model ID", "The model `x` does not exist". */
function unknownModel(message: string): string | undefined {
  return (
    /^\s*(\S+) is not a valid model id/i.exec(message)?.[1] ??
    /\bmodel\s+[`'"]?([^`'"\s]+?)[`'"]?\s+(?:does not exist|not found|is not (?:available|supported|valid))/i.exec(
      message,
    )?.[1]
  );
}

const UNKNOWN_MODEL =
  /not a valid model|model_not_found|no such model|unknown model|invalid model|model\s+\S+\s+(does not exist|not found)/i;
const UNREACHABLE =
  /cannot reach|could not connect|connect(ion)? refused|fetch failed|network|timed? ?out|econn|enotfound|eai_again/i;
const ORIGIN_MISMATCH = /\bkey\b.*\bwas saved for\b/i;
const NO_KEY = /\bno (api )?key\b/i;
const BAD_KEY =
  /invalid (api )?key|incorrect api key|api key.*(invalid|not valid|expired)|unauthori[sz]ed|authenticat/i;
const TOO_LONG = /context length|context window|maximum context|too many tokens|prompt is too long/i;
const NO_CREDITS = /credits?\b|insufficient|quota|balance|payment required/i;
const RATE_LIMIT = /rate.?limit|too many requests/i;

const sentence = (text: string) => {
  const trimmed = text.trim();
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
};

export function explainError(error: ErrorInput): ErrorWords {
  const { message, status, code } = error;
  const details = `${status ? `${status}: ` : ""}${message}`;
  const words = (title: string, hint: string, ways: { settings?: boolean; model?: boolean } = {}): ErrorWords => ({
    title,
    hint,
    details,
    settings: ways.settings ?? false,
    model: ways.model ?? false,
  });

  if (code === "credential_origin_mismatch" || ORIGIN_MISMATCH.test(message))
    return words(
      "The saved key was given for another server than the one this project uses.",
      "Save a key for this server, or check the address under Settings, Providers.",
      { settings: true },
    );
  // Parley's own refusals before anything is sent: 400 (or no status once stored).
  if ((status === undefined || status === 400) && NO_KEY.test(message))
    return words(
      "No API key is set for the gateway.",
      "Paste a key or sign in under Settings, Providers, then Retry.",
      {
        settings: true,
      },
    );
  if ((status === undefined || status === 502) && UNREACHABLE.test(message))
    return words(
      "Parley could not reach the gateway.",
      "Check the gateway's address under Settings, Providers, then Retry.",
      { settings: true },
    );
  if ((status === undefined || status === 400 || status === 404) && UNKNOWN_MODEL.test(message)) {
    const model = unknownModel(message);
    return words(
      `The gateway does not know the model ${model ?? "you picked"}.`,
      "Pick another model in the model picker, then Retry.",
      { model: true },
    );
  }
  if (status === 401 || (status !== 403 && BAD_KEY.test(message)))
    return words("The gateway refused the key.", "Check it under Settings, Providers, then Retry.", { settings: true });
  if (status === 403)
    return words(
      "The gateway refused the request with this key.",
      "Check the key and what it may use under Settings, Providers, or pick another model.",
      { settings: true, model: true },
    );
  if (status === 404)
    return words("The gateway has no such model or route.", "Pick another model in the model picker, then Retry.", {
      model: true,
    });
  if (TOO_LONG.test(message))
    return words(
      "The conversation is too long for this model.",
      "Compact the chat, or pick a model with a larger context window.",
      { model: true },
    );
  if (status === 402 || (status !== undefined && NO_CREDITS.test(message)))
    return words("The account has run out of credits.", "Add credits with the gateway, or pick a cheaper model.", {
      model: true,
    });
  if (status === 429 || RATE_LIMIT.test(message))
    return words("The gateway is limiting requests right now.", "Wait a moment, then Retry.");
  if (status === 408 || status === 504)
    return words("The gateway took too long to answer.", "Retry, or pick another model.", { model: true });
  if (status !== undefined && status >= 500)
    return words(`The gateway had a problem (${status}).`, "Retry in a moment, or pick another model.", {
      model: true,
    });
  if (status !== undefined)
    return words(`The gateway refused the request (${status}).`, "Retry, or pick another model.", { model: true });
  // Parley's own words (a step limit, a budget, an upstream error without a status): already a sentence.
  return { title: sentence(message), hint: "Retry, or pick another model.", settings: false, model: true };
}
