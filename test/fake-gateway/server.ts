// A faithful fake of the model gateway on loopback, speaking its documented wire format:
// OpenAI-shaped chat completions streamed as SSE with `:` keep-alive comments, a final chunk with
// usage and cost, `data: [DONE]`, error chunks with finish_reason "error", JSON errors with status,
// the model catalog slices, credits and key info, transcription, and the PKCE sign-in endpoints.
// Tests script its next answers; without a script it echoes, so people can try the UI with it.
// Like the gateway it enforces each model's context length (400 with its context-length message),
// counts tokens with a real tokenizer (tokens.ts) and caches prompts as the vendors do (prompt-cache.ts).
// `dialect` turns on the gaps of self-hosted OpenAI-style servers (see dialect.ts).
import http from "node:http";
import { createHash, randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import busboy from "busboy";
import { TEXT_MODELS, TRANSCRIPTION_MODELS, type RawModel } from "./catalog";
import { audioContainer, audioTokens, FAKE_TRANSCRIPT, INPUT_AUDIO_FORMATS, priced } from "./audio";
import { bareModel, writeError, type Dialect, type ErrorBodyShape } from "./dialect";
import { needsExplicitMarks, PromptCache, type CacheOutcome } from "./prompt-cache";
import { contentText, promptTokens, tokensOf, type WireMessage } from "./tokens";
import { LONG_MODEL, longAgentScenario, TOOL_MODELS, toolScenario } from "./tool-script";
import { LONG_MARKDOWN_MODEL, longMarkdownScenario } from "./long-markdown";

export { toolScenario } from "./tool-script";

/** `clientPort`: the client's end of the connection; requests on one kept-alive connection share it. */
export type RecordedRequest = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  clientPort?: number;
};

/** How the next chat completion answers. */
export type Scenario =
  | { kind: "status"; status: number; message?: string; retryAfter?: string; body?: ErrorBodyShape }
  | {
      kind: "reply";
      text?: string;
      /** Text split into these pieces (default: words). */
      pieces?: string[];
      reasoning?: string[];
      delayMs?: number;
      /** Include `cost` in the usage chunk (default true). */
      cost?: boolean;
      /** Send no usage chunk at all. */
      noUsage?: boolean;
      /** After this many pieces, send an error chunk (finish_reason "error") and end. */
      errorAfter?: number;
      errorStatus?: number;
      errorMessage?: string;
      /** `object` (default): `{error:{code,message}}`; `string`: `{error:"…"}` as `transformers serve` sends. */
      errorShape?: "object" | "string";
      /** End the error chunk's stream without `data: [DONE]`, as LiteLLM's proxy does. */
      errorWithoutDone?: boolean;
      /** The last chunk's finish_reason (default "stop"); "length" is a cut at the token limit. */
      finishReason?: string;
      /** After this many pieces, cut the connection without [DONE]. */
      dropAfter?: number;
      /** Wait this long between `data: [DONE]` and the end of the body (its last chunk comes apart). */
      endAfterDoneMs?: number;
      cachedTokens?: number;
      reasoningTokens?: number;
      /**
       * Tool calls after the text, streamed as a real server does: each call's id and name first, its
       * JSON arguments in three pieces, the calls interleaved by index; then finish_reason "tool_calls".
       */
      toolCalls?: { name: string; arguments: unknown; id?: string }[];
    }
  /** Bytes exactly as given, written in pieces (every `chunkBytes`, or cut at `splitAt` offsets). */
  | { kind: "raw"; body: string; chunkBytes?: number; splitAt?: number[]; delayMs?: number; latin1?: boolean };

export const KEEP_ALIVE_COMMENT = ": GATEWAY PROCESSING\n\n";

type PendingAuth = { challenge: string; method: string; callbackUrl: string };

export class FakeGateway {
  readonly requests: RecordedRequest[] = [];
  /** At most this many requests are kept, the oldest dropped (a long benchmark session sends gigabytes). */
  keepRequests = Infinity;
  private readonly queue: Scenario[] = [];
  private readonly server: http.Server;
  private abortedStreams = 0;
  private endedStreams = 0;
  private abortWaiters: (() => void)[] = [];
  private readonly codes = new Map<string, PendingAuth>();
  /** Keys allowed to read /credits (a management key); others get 403 and must read /key. */
  readonly managementKeys = new Set<string>(["sk-fake-management"]);
  /** When set, only these Bearer keys are accepted (401 otherwise). */
  validKeys: Set<string> | undefined;
  /** Keys issued by /auth/keys, in order. */
  readonly issuedKeys: string[] = [];
  /** Makes /auth/keys fail: a status, or "malformed" JSON, or "nokey" (no `key` field). */
  authKeysFailure: number | "malformed" | "nokey" | undefined;
  /** The next speech-to-text calls (either route) fail with these, in order. */
  readonly audioFailures: { status: number; message: string }[] = [];
  /** Self-hosted server gaps to imitate; the gateway's dialect when empty. */
  dialect: Dialect = {};
  /** Context windows that differ from the catalog's, by model id (listed by /models and enforced). */
  readonly contextLengths = new Map<string, number>();
  /** The simulated prompt cache, shared by every request to this gateway. */
  readonly promptCache = new PromptCache();
  url = "";

  constructor() {
    this.server = http.createServer((req, res) => {
      void this.handle(req, res).catch((error) => {
        if (!res.headersSent) this.json(res, 500, { error: { code: 500, message: String(error) } });
        else res.destroy();
      });
    });
  }

  /** The API base, as APP_GATEWAY_BASE_URL takes it. */
  get baseUrl(): string {
    return `${this.url}/api/v1`;
  }

  get authUrl(): string {
    return `${this.url}/auth`;
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  enqueue(...scenarios: Scenario[]): void {
    this.queue.push(...scenarios);
  }

  /** Chat completion requests received so far. */
  get completions(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === "/api/v1/chat/completions");
  }

  get streamsAbortedByClient(): number {
    return this.abortedStreams;
  }

  /** Streamed answers whose body the gateway has ended (all of it written, [DONE] and what follows). */
  get streamsEnded(): number {
    return this.endedStreams;
  }

  /** Resolves when a client closes a stream before it ended (proof that a cancel reached the socket). */
  waitForClientAbort(): Promise<void> {
    return new Promise((resolve) => this.abortWaiters.push(resolve));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    const isMultipart = (req.headers["content-type"] ?? "").startsWith("multipart/");
    const body = isMultipart ? await this.multipart(req) : await this.jsonBody(req);
    const route = `${req.method} ${url.pathname}`;
    // Tests that run the fake in a process of its own read what it was sent here (never recorded itself).
    if (route === "GET /_test/completions")
      return this.json(
        res,
        200,
        this.completions.map((r) => r.body),
      );
    this.requests.push({
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body,
      clientPort: req.socket.remotePort,
    });
    if (this.requests.length > this.keepRequests) this.requests.splice(0, this.requests.length - this.keepRequests);

    if (route === "GET /auth") return this.authorizePage(url, res);
    if (route === "GET /auth/approve") return this.approve(url, res);
    if (route === "POST /api/v1/auth/keys") return this.exchange(body, res);
    if (route === "GET /api/v1/models") return this.models(url, res);

    const key = this.bearer(req);
    if (!key || (this.validKeys && !this.validKeys.has(key))) return this.error(res, 401, "No auth credentials found");
    if (route === "POST /api/v1/chat/completions") return this.chat(body as Record<string, unknown>, req, res);
    if ((route === "GET /api/v1/credits" || route === "GET /api/v1/key") && this.dialect.noCredits)
      return this.error(res, 404, "Not Found");
    if (route === "GET /api/v1/credits") {
      if (!this.managementKeys.has(key)) return this.error(res, 403, "Only management keys can read credits");
      return this.json(res, 200, { data: { total_credits: 25, total_usage: 7.5 } });
    }
    if (route === "GET /api/v1/key") {
      return this.json(res, 200, {
        data: { label: `${key.slice(0, 12)}...`, usage: 1.25, limit: 10, limit_remaining: 8.75, is_free_tier: false },
      });
    }
    if (route === "POST /api/v1/audio/transcriptions") return this.transcribe(body as MultipartBody, res);
    this.error(res, 404, `Not found: ${route}`);
  }

  /** An error body in the dialect's shape (or the one given). */
  private error(res: http.ServerResponse, status: number, message: string, shape?: ErrorBodyShape): void {
    writeError(res, status, message, shape ?? this.dialect.errorBody);
  }

  private bearer(req: http.IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    return header?.startsWith("Bearer ") ? header.slice(7) : undefined;
  }

  private models(url: URL, res: http.ServerResponse): void {
    if (this.dialect.bareModels) {
      // Self-hosted servers ignore the filter and list every model they serve, ids only.
      return this.json(res, 200, {
        object: "list",
        data: [...TEXT_MODELS, ...TRANSCRIPTION_MODELS].map((m) => bareModel(m.id)),
      });
    }
    const slice = url.searchParams.get("output_modalities");
    const data = slice === "transcription" ? TRANSCRIPTION_MODELS : TEXT_MODELS;
    this.json(res, 200, { data: data.map((m) => ({ ...m, context_length: this.contextLength(m) })) });
  }

  /** The model's context window: an override, else the catalog's. */
  contextLength(model: RawModel): number {
    return this.contextLengths.get(model.id) ?? model.context_length;
  }

  /**
   * The prompt's tokens and what the cache makes of them, or the gateway's context-length refusal when
   * the prompt and the requested output do not fit the window (checked before anything is cached).
   */
  private measure(model: RawModel, body: Record<string, unknown>, messages: WireMessage[]): Measured | string {
    const counted = promptTokens(messages, body.tools);
    const limit = this.contextLength(model);
    const output = Number(body.max_tokens ?? body.max_completion_tokens ?? 0) || 0;
    if (counted.total + output > limit) {
      const text = counted.total - counted.tools;
      const parts = [
        `${text} of text input`,
        ...(counted.tools > 0 ? [`${counted.tools} of tool input`] : []),
        `${output} in the output`,
      ];
      return (
        `This endpoint's maximum context length is ${limit} tokens. However, you requested about ` +
        `${counted.total + output} tokens (${parts.join(", ")}). Please reduce the length of either one, or use ` +
        `the "middle-out" transform to compress your prompt automatically.`
      );
    }
    const cache = this.promptCache.lookup(model.id, messages, body.tools, counted.tools, counted.perMessage);
    return { promptTokens: counted.total, ...cache };
  }

  private async chat(
    body: Record<string, unknown>,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    const model = TEXT_MODELS.find((m) => m.id === body.model);
    if (!model) return this.error(res, 400, `${String(body.model)} is not a valid model ID`);
    const messages = Array.isArray(body.messages) ? (body.messages as WireMessage[]) : [];
    const measured = this.measure(model, body, messages);
    if (typeof measured === "string") return this.error(res, 400, measured);
    if (body.stream !== true) return this.nonStreaming(model, body, messages, measured, res);

    const scenario = this.queue.shift() ?? this.defaultScenario(model, messages, body.tools);
    if (scenario.kind === "status") {
      if (scenario.retryAfter) res.setHeader("retry-after", scenario.retryAfter);
      return this.error(res, scenario.status, scenario.message ?? `fake failure ${scenario.status}`, scenario.body);
    }

    let finished = false;
    res.once("finish", () => this.endedStreams++);
    res.on("close", () => {
      if (finished) return;
      this.abortedStreams++;
      for (const wake of this.abortWaiters.splice(0)) wake();
    });
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-generation-id": `gen-${randomBytes(6).toString("hex")}`,
    });
    res.flushHeaders();
    const alive = () => !res.destroyed && !res.writableEnded;
    // A stream's pauses stand for a slow model; they end early when the client or stop() closes it,
    // so no timer outlives the stream (and holds the test process open).
    const pause = (ms: number) =>
      new Promise<void>((resolve) => {
        if (res.destroyed) return resolve();
        const done = () => {
          clearTimeout(timer);
          res.off("close", done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        res.once("close", done);
      });

    if (scenario.kind === "raw") {
      const { body } = scenario;
      const cuts = scenario.splitAt ?? [];
      const step = scenario.chunkBytes ?? body.length;
      const bounds = scenario.splitAt
        ? [0, ...cuts, body.length]
        : Array.from({ length: Math.ceil(body.length / step) + 1 }, (_, i) => Math.min(i * step, body.length));
      for (let i = 0; i + 1 < bounds.length && alive(); i++) {
        res.write(Buffer.from(body.slice(bounds[i], bounds[i + 1]), scenario.latin1 ? "latin1" : "utf8"));
        if (scenario.delayMs) await pause(scenario.delayMs);
      }
      finished = true;
      res.end();
      return;
    }

    const id = `gen-${randomBytes(8).toString("hex")}`;
    const chunk = (
      delta: Record<string, unknown>,
      finishReason: string | null = null,
      extra: Record<string, unknown> = {},
    ) =>
      `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: model.id, provider: "FakeProvider", choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`;

    res.write(KEEP_ALIVE_COMMENT);
    const pieces = scenario.pieces ?? (scenario.text ?? "").split(/(?<= )/);
    for (const reasoning of scenario.reasoning ?? []) {
      if (!alive()) return;
      res.write(chunk({ role: "assistant", content: "", reasoning }));
      if (scenario.delayMs) await pause(scenario.delayMs);
    }
    for (let i = 0; i < pieces.length; i++) {
      if (!alive()) return;
      if (scenario.dropAfter === i) {
        // Let what was written reach the client first: a real drop cuts a stream already under way.
        await pause(20);
        finished = true;
        res.destroy();
        return;
      }
      if (scenario.errorAfter === i) {
        const message = scenario.errorMessage ?? "Provider disconnected unexpectedly";
        if (scenario.errorShape === "string") res.write(`data: ${JSON.stringify({ error: message })}\n\n`);
        else res.write(chunk({ content: "" }, "error", { error: { code: scenario.errorStatus ?? 502, message } }));
        if (!scenario.errorWithoutDone && !this.dialect.noDone) res.write("data: [DONE]\n\n");
        finished = true;
        res.end();
        return;
      }
      res.write(chunk({ role: "assistant", content: pieces[i] }));
      if (scenario.delayMs) {
        await pause(scenario.delayMs);
        if (scenario.delayMs >= 100 && alive()) res.write(KEEP_ALIVE_COMMENT);
      }
    }
    if (!alive()) return;
    const calls = scenario.toolCalls ?? [];
    const argTexts = calls.map((c) => (typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments)));
    calls.forEach((call, index) => {
      res.write(
        chunk({
          tool_calls: [
            {
              index,
              id: call.id ?? `call_${randomBytes(4).toString("hex")}`,
              type: "function",
              function: { name: call.name, arguments: "" },
            },
          ],
        }),
      );
    });
    for (let piece = 0; piece < 3; piece++) {
      argTexts.forEach((text, index) => {
        const size = Math.ceil(text.length / 3);
        const part = text.slice(piece * size, (piece + 1) * size);
        if (part) res.write(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
      });
    }
    res.write(chunk({}, calls.length > 0 ? "tool_calls" : (scenario.finishReason ?? "stop")));
    const asked = (body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
    if (!scenario.noUsage && (asked || !this.dialect.usageOnlyWhenAsked)) {
      // Scripted pieces are a token each (a real stream sends about one per chunk); a text is counted,
      // and so are the tool calls' names and arguments.
      const completionTokens =
        (scenario.pieces ? scenario.pieces.length : tokensOf(scenario.text ?? "")) +
        calls.reduce((sum, call, i) => sum + tokensOf(call.name) + tokensOf(argTexts[i]!), 0) +
        (scenario.reasoningTokens ?? 0);
      // A scripted cachedTokens stands in for the simulation (and writes nothing).
      const cache: CacheOutcome =
        scenario.cachedTokens === undefined
          ? measured
          : { cachedTokens: Math.min(scenario.cachedTokens, measured.promptTokens), cacheWriteTokens: 0 };
      const usage = {
        prompt_tokens: measured.promptTokens,
        completion_tokens: completionTokens,
        total_tokens: measured.promptTokens + completionTokens,
        prompt_tokens_details: {
          cached_tokens: cache.cachedTokens,
          cache_write_tokens: cache.cacheWriteTokens,
          audio_tokens: 0,
        },
        completion_tokens_details: { reasoning_tokens: scenario.reasoningTokens ?? 0 },
        ...(scenario.cost === false || this.dialect.noCost
          ? {}
          : {
              cost: cachedCost(model, { ...measured, ...cache }, completionTokens),
              cost_details: { upstream_inference_cost: null },
            }),
      };
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model: model.id, provider: "FakeProvider", choices: [], usage })}\n\n`,
      );
    }
    if (!this.dialect.noDone) res.write("data: [DONE]\n\n");
    if (scenario.endAfterDoneMs) await pause(scenario.endAfterDoneMs);
    finished = true;
    res.end();
  }

  private defaultScenario(model: RawModel, messages: WireMessage[], tools: unknown): Scenario {
    const lastUser = [...messages].reverse().find((m) => m.role === "user");
    const said = lastUser ? contentText(lastUser.content) : "something";
    if (model.id === "fake/slow") {
      const text = `Thinking out loud about "${said}". `.repeat(4) + "That is all I have to say.";
      return { kind: "reply", text, delayMs: 120 };
    }
    if (model.id === "fake/fast") return { kind: "reply", pieces: numberedPieces(20) };
    if (model.id === "fake/burst") return { kind: "reply", pieces: numberedPieces(2000) };
    if (model.id === "fake/reasoner")
      return { kind: "reply", reasoning: ["Let me ", "think."], text: `You said: ${said}`, reasoningTokens: 3 };
    if (TOOL_MODELS.has(model.id)) return toolScenario(messages, tools);
    if (model.id === LONG_MODEL) return longAgentScenario(messages, tools);
    if (model.id === LONG_MARKDOWN_MODEL) return longMarkdownScenario(said);
    if (model.id === "fake/short")
      return { kind: "reply", text: `You said: ${said}, and then I ran out of`, finishReason: "length" };
    return { kind: "reply", text: `You said: ${said}`, delayMs: 5 };
  }

  private nonStreaming(
    model: RawModel,
    body: Record<string, unknown>,
    messages: WireMessage[],
    measured: Measured,
    res: http.ServerResponse,
  ): void {
    const parts = messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, unknown>[]) : []));
    const audio = parts.find((p) => p.type === "input_audio")?.input_audio as
      { data?: string; format?: string } | undefined;
    // A text answer as the stream would give it (a summary, an echo); a tool call is not answered here.
    const scripted = this.defaultScenario(model, messages, body.tools);
    let content =
      scripted.kind === "reply" && !scripted.toolCalls?.length && scripted.text
        ? scripted.text
        : `You said: ${contentText(messages.at(-1)?.content)}`;
    let promptTokens = measured.promptTokens;
    let cache: CacheOutcome = measured;
    if (audio) {
      if (!model.architecture.input_modalities.includes("audio"))
        return this.error(res, 400, `${model.id} does not take audio input`);
      const failure = this.audioFailures.shift();
      if (failure) return this.error(res, failure.status, failure.message);
      const bytes = Buffer.from(audio.data ?? "", "base64");
      if (!INPUT_AUDIO_FORMATS.includes(audio.format ?? ""))
        return this.error(res, 400, `Unsupported audio format: ${audio.format}`);
      if (audioContainer(bytes) !== audio.format) return this.error(res, 400, `The audio is not valid ${audio.format}`);
      content = FAKE_TRANSCRIPT;
      promptTokens = audioTokens(bytes);
      cache = { cachedTokens: 0, cacheWriteTokens: 0 };
    }
    const completionTokens = audio ? Math.ceil(content.length / 4) : tokensOf(content);
    this.json(res, 200, {
      id: `gen-${randomBytes(6).toString("hex")}`,
      object: "chat.completion",
      model: model.id,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        ...(audio
          ? {}
          : {
              prompt_tokens_details: {
                cached_tokens: cache.cachedTokens,
                cache_write_tokens: cache.cacheWriteTokens,
                audio_tokens: 0,
              },
            }),
        ...(this.dialect.noCost
          ? {}
          : {
              cost: audio
                ? priced(model, promptTokens, completionTokens)
                : cachedCost(model, { promptTokens, ...cache }, completionTokens),
            }),
      },
    });
  }

  /** The gateway's transcription answer: `{text, usage:{input_tokens, output_tokens, total_tokens, cost}}`. */
  private transcribe(body: MultipartBody, res: http.ServerResponse): void {
    const model = TRANSCRIPTION_MODELS.find((m) => m.id === body.fields.model);
    if (!model) return this.error(res, 400, `Model ${body.fields.model} does not exist`);
    if (!body.file) return this.error(res, 400, "file is required");
    const failure = this.audioFailures.shift();
    if (failure) return this.error(res, failure.status, failure.message);
    if (!audioContainer(body.file.bytes))
      return this.error(res, 400, "Invalid file format: the audio could not be decoded");
    const input = audioTokens(body.file.bytes);
    const output = Math.ceil(FAKE_TRANSCRIPT.length / 4);
    const usage = {
      input_tokens: input,
      output_tokens: output,
      total_tokens: input + output,
      ...(this.dialect.noCost ? {} : { cost: priced(model, input, output) }),
    };
    this.json(res, 200, { text: FAKE_TRANSCRIPT, usage });
  }

  /** The authorization page: shows what it was asked, and an Authorize link back to the app. */
  private authorizePage(url: URL, res: http.ServerResponse): void {
    const callbackUrl = url.searchParams.get("callback_url");
    const challenge = url.searchParams.get("code_challenge");
    const method = url.searchParams.get("code_challenge_method") ?? "plain";
    if (!callbackUrl || !challenge) {
      res.writeHead(400, { "content-type": "text/html" }).end("<h1>Missing callback_url or code_challenge</h1>");
      return;
    }
    const code = randomBytes(12).toString("hex");
    this.codes.set(code, { challenge, method, callbackUrl });
    // Relative, so the page also works when an editor opens it through a proxy path.
    const approve = `auth/approve?code=${code}&amp;state=${encodeURIComponent(url.searchParams.get("state") ?? "")}`;
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(
        `<!doctype html><title>Fake gateway: authorize</title><h1>Authorize Parley?</h1>` +
          `<p>Parley asks for a key for your account.</p><a id="authorize" href="${approve}">Authorize</a>`,
      );
  }

  private approve(url: URL, res: http.ServerResponse): void {
    const pending = this.codes.get(url.searchParams.get("code") ?? "");
    if (!pending) {
      res.writeHead(400, { "content-type": "text/html" }).end("<h1>Unknown code</h1>");
      return;
    }
    const target = new URL(pending.callbackUrl);
    target.searchParams.set("code", url.searchParams.get("code")!);
    const state = url.searchParams.get("state");
    if (state) target.searchParams.set("state", state);
    res.writeHead(302, { location: target.toString() }).end();
  }

  /** POST /auth/keys: checks SHA-256(code_verifier) against the challenge the page was shown. */
  private exchange(body: unknown, res: http.ServerResponse): void {
    if (typeof this.authKeysFailure === "number")
      return this.json(res, this.authKeysFailure, {
        error: { code: this.authKeysFailure, message: "fake exchange failure" },
      });
    if (this.authKeysFailure === "malformed") {
      res.writeHead(200, { "content-type": "application/json" }).end("{not json");
      return;
    }
    const { code, code_verifier: verifier, code_challenge_method: method } = (body ?? {}) as Record<string, string>;
    const pending = code ? this.codes.get(code) : undefined;
    if (!pending) return this.json(res, 403, { error: { code: 403, message: "Invalid code" } });
    const computed = createHash("sha256")
      .update(verifier ?? "")
      .digest("base64url");
    if (method !== "S256" || pending.method !== "S256" || computed !== pending.challenge) {
      return this.json(res, 403, { error: { code: 403, message: "Invalid code_verifier" } });
    }
    this.codes.delete(code!);
    if (this.authKeysFailure === "nokey") return this.json(res, 200, { user_id: "user_1" });
    const key = `sk-fake-v1-${randomBytes(24).toString("hex")}`;
    this.issuedKeys.push(key);
    this.json(res, 200, { key, user_id: "user_1" });
  }

  private json(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  }

  private async jsonBody(req: http.IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    if (!text) return null;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  private multipart(req: http.IncomingMessage): Promise<MultipartBody> {
    return new Promise((resolve, reject) => {
      const result: MultipartBody = { fields: {} };
      const parser = busboy({ headers: req.headers });
      parser.on("field", (name, value) => (result.fields[name] = value));
      parser.on("file", (_name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on(
          "end",
          () =>
            (result.file = {
              bytes: Buffer.concat(chunks),
              mimeType: info.mimeType,
              fileName: info.filename ?? "audio",
            }),
        );
      });
      parser.on("close", () => resolve(result));
      parser.on("error", reject);
      req.pipe(parser);
    });
  }
}

/** "t0 ", "t1 ", …: pieces whose order and completeness a reader can check. */
export function numberedPieces(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `t${i} `);
}

/** A chat request's prompt as the gateway measured it. */
type Measured = { promptTokens: number } & CacheOutcome;

/**
 * The cost of a step with its cache: cached tokens at the model's cache-read price, written ones at
 * its cache-write price (vendors behind marks), the rest of the prompt and the answer at full price.
 */
export function cachedCost(model: RawModel, usage: Measured, completionTokens: number): number {
  const prompt = Number(model.pricing.prompt);
  const read = Number(model.pricing.input_cache_read ?? model.pricing.prompt);
  const write = needsExplicitMarks(model.id) ? Number(model.pricing.input_cache_write ?? prompt) : prompt;
  const plain = Math.max(0, usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens);
  return (
    plain * prompt +
    usage.cachedTokens * read +
    usage.cacheWriteTokens * write +
    completionTokens * Number(model.pricing.completion)
  );
}

type MultipartBody = { fields: Record<string, string>; file?: { bytes: Buffer; mimeType: string; fileName: string } };
