// What an OpenAI-style server said when it failed, in each shape such servers use, so the
// upstream's own words always reach the user. OpenRouter and vLLM send `{error:{message}}` or
// `{message}`, Ollama and `transformers serve` `{error:"…"}`, FastAPI-based proxies `{detail}`, and
// some servers plain text or an HTML error page. Pure, so every shape is unit-tested.

import { isPlainObject as isObject } from "../settings/settings-merge";

type Json = Record<string, unknown>;

export const MAX_UPSTREAM_MESSAGE = 500;

function clip(text: string): string | undefined {
  const flat = text.replace(/\s+/g, " ").trim();
  if (!flat) return undefined;
  return flat.length > MAX_UPSTREAM_MESSAGE ? `${flat.slice(0, MAX_UPSTREAM_MESSAGE - 1)}…` : flat;
}

/** FastAPI's `detail`: a string, or a list of `{loc, msg}` validation problems. */
function detailText(detail: unknown): string | undefined {
  if (typeof detail === "string") return detail;
  if (isObject(detail) && typeof detail.message === "string") return detail.message;
  if (!Array.isArray(detail)) return undefined;
  const parts = detail
    .map((item) => {
      if (typeof item === "string") return item;
      if (!isObject(item) || typeof item.msg !== "string") return undefined;
      const where = Array.isArray(item.loc)
        ? item.loc.filter((p) => typeof p === "string" || typeof p === "number").join(".")
        : "";
      return where ? `${where}: ${item.msg}` : item.msg;
    })
    .filter((p): p is string => typeof p === "string" && p.length > 0);
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/**
 * The human message in an error body or error chunk, whichever shape it has; undefined when there
 * is none. A top-level `message` beats a bare `error` string, which is often only a title
 * (`{"error":"Not Found","message":"Cannot GET /v1/credits"}`).
 */
export function errorBodyMessage(body: unknown): string | undefined {
  if (typeof body === "string") return clip(body);
  if (!isObject(body)) return undefined;
  const { error } = body;
  const candidates = [
    isObject(error) ? error.message : undefined,
    isObject(error) ? detailText(error.detail) : undefined,
    detailText(body.detail),
    body.message,
    typeof error === "string" ? error : undefined,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === "string") {
      const text = clip(candidate);
      if (text) return text;
    }
  }
  return undefined;
}

/** The readable text of a plain or HTML error page (its title, else its text without tags). */
function plainText(text: string): string | undefined {
  if (!/<[a-z!/][^>]*>/i.test(text)) return clip(text);
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
  const body = (title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ")).replace(/<[^>]*>/g, " ");
  return clip(
    body
      .replace(/&nbsp;/g, " ")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&"),
  );
}

/** The human message of a body in any shape: its JSON's, else its plain or HTML text; undefined when empty. */
export function bodyMessage(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return plainText(text);
  }
  return errorBodyMessage(parsed);
}

/** The message of a failed HTTP answer: from its JSON, else its plain text, else a short fallback. */
export function upstreamMessage(status: number, text: string): string {
  return bodyMessage(text) ?? `the gateway answered ${status}`;
}

/** Error `code`/`type` names (OpenAI, Anthropic, LiteLLM's exception names) and what status they mean. */
const STATUS_BY_NAME: Record<string, number> = {
  invalid_api_key: 401,
  authentication_error: 401,
  authenticationerror: 401,
  unauthorized: 401,
  permission_denied: 403,
  permission_error: 403,
  permissiondeniederror: 403,
  forbidden: 403,
  model_not_found: 404,
  not_found: 404,
  not_found_error: 404,
  notfounderror: 404,
  invalid_request_error: 400,
  badrequesterror: 400,
  bad_request: 400,
  context_length_exceeded: 400,
  contextwindowexceedederror: 400,
  insufficient_quota: 402,
  rate_limit_exceeded: 429,
  rate_limit_error: 429,
  ratelimiterror: 429,
  timeout: 408,
  timeouterror: 408,
  server_error: 500,
  api_error: 500,
  internal_server_error: 500,
  internalservererror: 500,
  overloaded_error: 503,
  serviceunavailableerror: 503,
};

const asStatus = (value: unknown): number | undefined => {
  const n =
    typeof value === "number" ? value : typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined;
};

/**
 * The HTTP status an error object stands for: a numeric `code` or `status` (OpenRouter sends
 * `code: 502`, LiteLLM `code: "400"`), else what its `code` or `type` name means.
 */
export function errorStatus(error: Json): number | undefined {
  const direct = asStatus(error.code) ?? asStatus(error.status);
  if (direct !== undefined) return direct;
  for (const name of [error.code, error.type]) {
    if (typeof name !== "string") continue;
    const status = STATUS_BY_NAME[name.toLowerCase()];
    if (status !== undefined) return status;
  }
  return undefined;
}

/**
 * A 404 from a base URL without a version segment usually means the `/v1` is missing (vLLM,
 * Ollama, `transformers serve` and LiteLLM all serve the OpenAI routes under it). Says so, or
 * undefined when the URL already has one.
 */
export function missingVersionHint(baseUrl: string, path: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (url.pathname.split("/").some((segment) => /^v\d+(?:(?:alpha|beta)\d*)?$/i.test(segment))) return undefined;
  const suggestion = `${url.origin}${url.pathname.replace(/\/+$/, "")}/v1`;
  return `the server answered 404 for ${path.split("?")[0]}; did you mean ${suggestion}?`;
}

/** A secret shorter than this is never taken for a key. */
export const MIN_SECRET_LENGTH = 6;
/**
 * A secret at least this long is replaced wherever it occurs; a shorter one (a local server's
 * `ollama`, `EMPTY`, `changeme`) only where it stands as a whole token, never inside a word or a
 * name such as `registry.ollama.ai`.
 */
export const MIN_SECRET_ANYWHERE = 12;

// What may stand before and after a secret quoted as a whole token: the start or end, white space,
// quotes, brackets and separators (`key=…`, `"…"`, `key: …`), or sentence punctuation before a space
// or the end ("…provided: sk-abc123."). Letters, digits, `.`, `/`, `-` and `_` join it to a word.
const BEFORE_TOKEN = "(?<=^|[\\s\"'`(\\[{<=:,;&?])";
const AFTER_TOKEN = "(?=$|[\\s\"'`)\\]}>,;&#@]|[.:!?](?:\\s|$))";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The message with every copy of a secret replaced: some servers quote the key they refused
 * ("Incorrect API key provided: sk-…"), and a key must never reach a response or a log. A secret is
 * replaced where it occurs as one: anywhere when it is long, as a whole token when it is short.
 */
export function withoutSecret(message: string, secrets: string | undefined | readonly string[]): string {
  let out = message;
  // Longest first, so a whole "Bearer sk-…" goes before the bare key inside it.
  const list = (typeof secrets === "string" ? [secrets] : (secrets ?? []))
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  for (const secret of list) {
    out =
      secret.length >= MIN_SECRET_ANYWHERE
        ? out.split(secret).join("[redacted]")
        : out.replace(new RegExp(`${BEFORE_TOKEN}${escapeRegExp(secret)}${AFTER_TOKEN}`, "g"), "[redacted]");
  }
  return out;
}
