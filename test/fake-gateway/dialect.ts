// How far the fake strays from the gateway toward a self-hosted OpenAI-style server (vLLM, Ollama,
// LiteLLM, `transformers serve`): the gaps the API contract (section 5, last paragraph) lists.
// Every option is off by default, so the fake speaks the gateway's own dialect unless told.
import type http from "node:http";

/** The shape of an error body: the gateway's `{error:{code,message}}`, or another server's. */
export type ErrorBodyShape =
  /** `{error:{code,message}}`, as the gateway sends. */
  | "gateway"
  /** `{detail:"…"}`, as FastAPI-based servers send. */
  | "detail"
  /** `{object:"error", message, code}`, as vLLM sends. */
  | "message"
  /** `{error:"…"}`, as Ollama and `transformers serve` send. */
  | "string"
  /** Plain text, as a bare uvicorn or a proxy sends. */
  | "text";

export type Dialect = {
  /** Usage only when the request asks for it with `stream_options.include_usage`. */
  usageOnlyWhenAsked?: boolean;
  /** Usage without `cost`. */
  noCost?: boolean;
  /** `/models` lists bare ids (no name, context length, prices or modalities) and ignores `output_modalities`. */
  bareModels?: boolean;
  /** Streams end after the last chunk without `data: [DONE]`. */
  noDone?: boolean;
  /** `/credits` and `/key` answer 404. */
  noCredits?: boolean;
  /** Error bodies in this shape. */
  errorBody?: ErrorBodyShape;
};

export function writeError(
  res: http.ServerResponse,
  status: number,
  message: string,
  shape: ErrorBodyShape = "gateway",
): void {
  if (shape === "text") {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8" }).end(message);
    return;
  }
  const body =
    shape === "detail"
      ? { detail: message }
      : shape === "message"
        ? { object: "error", message, type: "BadRequestError", param: null, code: status }
        : shape === "string"
          ? { error: message }
          : { error: { code: status, message } };
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

/** A `/models` entry as OpenAI-style servers list it: the id and little else. */
export function bareModel(id: string): Record<string, unknown> {
  return { id, object: "model", created: 1_700_000_000, owned_by: "local" };
}
