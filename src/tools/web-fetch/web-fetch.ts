// The `web_fetch` tool (contract 7.5): one GET over http(s), redirects followed by hand, every hop's
// host resolved here, each of its addresses checked, and the connection pinned to the checked one; the
// body read up to the limit (decompressed bytes counted), then HTML as markdown or text as text. All in
// one deadline that a cancel of the turn also ends. Whatever goes wrong is a ToolError in words.
import dns from "node:dns/promises";
import net from "node:net";
import type { WebFetchSettings } from "../../shared/web-fetch";
import { WEB_FETCH_MAX_BYTES, type webFetchArgsSchema } from "../native-tools";
import type { z } from "zod";
import type { Agent, Response } from "undici";
import { ToolError } from "../tool-error";
import { addressRefusal, normalizeHost, privateAccess, type PrivateAccess } from "./addresses";
import { readLimited } from "./body";
import { capText, declaredKind, decodeText, mediaType, sniffKind } from "./content";
import { convertHtml } from "./html-converter";
import { pinnedAgent, undiciFetch } from "./pinned-agent";
import { checkUrl, isRedirect, redirectTarget } from "./urls";

export const FETCH_TIMEOUT_MS = 20_000;

export type WebFetchResult = {
  /** The URL the content came from, after redirects. */
  url: string;
  status: number;
  contentType: string;
  /** Body bytes read (after decompression). */
  bytes: number;
  /** The body went on past the limit, or the text past what one result gives: `content` says where. */
  truncated: boolean;
  content: string;
};

/** A host name's addresses, as text. */
export type Resolver = (host: string) => Promise<string[]>;

export type WebFetchOptions = {
  signal: AbortSignal;
  /** The app's `webFetch` setting: which private addresses may be reached. */
  settings?: WebFetchSettings;
  /** DNS (getaddrinfo: /etc/hosts included) unless a test puts a resolver of its own here. */
  resolve?: Resolver;
  timeoutMs?: number;
};

const systemResolver: Resolver = async (host) =>
  (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

const HEADERS = {
  "user-agent": "Mozilla/5.0 (compatible; Parley web_fetch)",
  accept: "text/html,application/xhtml+xml,text/markdown;q=0.9,text/plain;q=0.9,*/*;q=0.5",
};

export function sizeWords(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

export async function webFetch(
  args: z.infer<typeof webFetchArgsSchema>,
  options: WebFetchOptions,
): Promise<WebFetchResult> {
  const limit = Math.min(args.maxBytes ?? WEB_FETCH_MAX_BYTES, WEB_FETCH_MAX_BYTES);
  const timeoutMs = options.timeoutMs ?? FETCH_TIMEOUT_MS;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new ToolError(`web_fetch gave up after ${timeoutMs / 1000} s (its time limit)`)),
    timeoutMs,
  );
  const onCancel = () => deadline.abort(new ToolError("the turn was cancelled"));
  options.signal.addEventListener("abort", onCancel, { once: true });
  if (options.signal.aborted) onCancel();
  const fetcher = new Fetcher(privateAccess(options.settings), options.resolve ?? systemResolver, deadline.signal);
  try {
    return await fetcher.fetch(checkUrl(args.url), limit);
  } catch (error) {
    // However it surfaced (a rejected read, fetch's own abort error), a stop is told as its reason.
    if (deadline.signal.aborted) throw deadline.signal.reason as ToolError;
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onCancel);
  }
}

class Fetcher {
  constructor(
    private readonly access: PrivateAccess,
    private readonly resolve: Resolver,
    private readonly signal: AbortSignal,
  ) {}

  async fetch(first: URL, limit: number): Promise<WebFetchResult> {
    const visited: URL[] = [];
    let url = first;
    for (;;) {
      visited.push(url);
      const address = await this.checkedAddress(url);
      const agent = await pinnedAgent(address);
      try {
        const response = await this.request(url, agent);
        if (!isRedirect(response.status)) return await this.result(url, response, limit);
        await response.body?.cancel().catch(() => {});
        url = redirectTarget(url, response.headers.get("location"), visited);
      } finally {
        void agent.destroy().catch(() => {});
      }
    }
  }

  /** The address to connect to: the host's, every one of them allowed (a literal address is its own). */
  private async checkedAddress(url: URL): Promise<string> {
    const host = normalizeHost(url.hostname);
    const addresses = net.isIP(host) ? [host] : await this.lookup(host);
    for (const address of addresses) {
      const refusal = addressRefusal(url.hostname, address, this.access);
      if (refusal) throw new ToolError(`web_fetch refused ${url.href}: ${refusal}`);
    }
    return addresses[0]!;
  }

  private async lookup(host: string): Promise<string[]> {
    let addresses: string[];
    try {
      addresses = await abortable(this.resolve(host), this.signal);
    } catch (error) {
      if (this.signal.aborted) throw error;
      throw new ToolError(
        `cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    if (addresses.length === 0) throw new ToolError(`cannot resolve ${host}: no address`);
    return addresses;
  }

  private async request(url: URL, agent: Agent): Promise<Response> {
    const fetch = await undiciFetch();
    try {
      return await fetch(url, { redirect: "manual", headers: HEADERS, dispatcher: agent, signal: this.signal });
    } catch (error) {
      if (this.signal.aborted) throw error;
      const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
      throw new ToolError(`cannot fetch ${url.href}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
    }
  }

  private async result(url: URL, response: Response, limit: number): Promise<WebFetchResult> {
    const contentType = response.headers.get("content-type");
    if (response.status >= 400) {
      await response.body?.cancel().catch(() => {});
      throw new ToolError(
        `${url.href} answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
      );
    }
    if (declaredKind(contentType) === "binary") {
      await response.body?.cancel().catch(() => {});
      throw new ToolError(refusedBinary(url, mediaType(contentType)!));
    }
    const body = await readLimited(response.body, limit).catch((error: unknown) => {
      if (this.signal.aborted) throw error;
      throw new ToolError(`the connection to ${url.host} broke while reading: ${(error as Error).message}`);
    });
    // Past the hard limit (a 10 GB body, a decompression bomb) the fetch fails: nothing more was read,
    // and the model is told how to get the start instead. A smaller maxBytes the model asked for cuts.
    if (body.truncated && limit >= WEB_FETCH_MAX_BYTES)
      throw new ToolError(
        `${url.href} is larger than web_fetch's ${sizeWords(WEB_FETCH_MAX_BYTES)} limit (decompressed): ` +
          `reading stopped there. Ask for its start with a smaller maxBytes.`,
      );
    const kind = declaredKind(contentType) ?? sniffKind(body.bytes);
    if (kind === "binary") throw new ToolError(refusedBinary(url, "binary data without a content type"));
    const text = decodeText(body.bytes, contentType);
    const page = kind === "html" ? await convertHtml(text, url.href, this.signal) : text;
    const capped = capText(page);
    const cutNote = body.truncated ? `\n\n… [cut at ${sizeWords(limit)}: the body goes on past web_fetch's limit]` : "";
    return {
      url: url.href,
      status: response.status,
      contentType: contentType ?? "",
      bytes: body.bytes.length,
      truncated: body.truncated || capped.cut,
      content: capped.text + cutNote,
    };
  }
}

const refusedBinary = (url: URL, type: string) =>
  `${url.href} is ${type}, which web_fetch does not read: it returns web pages (as markdown) and text only`;

/** A promise that also settles when the signal aborts (DNS lookups take none). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
