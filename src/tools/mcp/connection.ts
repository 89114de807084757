// One live connection to an MCP server over stdio, Streamable HTTP or the older HTTP+SSE transport, on
// the official SDK: connect with a time limit (falling back from Streamable HTTP to HTTP+SSE as the
// specification's compatibility section says), list every tool (paginated), follow
// `tools/list_changed`, keep the tail of the server's stderr for the status page, and report when the
// connection ends: a child that exits, or a remote server that is gone or has forgotten our session.
// A stdio server's command goes through the `launch` hook first, which wraps it in the sandbox.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerEntry, McpTransport } from "../../shared/settings";
import { lazyModule } from "../../platform/lazy-module";

export const STDERR_TAIL_CHARS = 4_000;
/**
 * The largest single message read from a stdio server. The SDK's default (10 MB) closes the connection
 * on a bigger result; results are capped to 64 KB of output anyway, so reading up to this is safe.
 */
export const MAX_STDIO_MESSAGE_BYTES = 64 * 1024 * 1024;

/** More tools than any model can use well; the rest are left out (and the status says so). */
export const MAX_TOOLS = 500;

/**
 * The SDK, loaded after start-up (see lazy-module.ts): loading it (its schemas and validators) takes
 * about 25 ms, a tenth of the server's start-up, which nothing needs before an MCP server starts.
 */
export const loadMcpSdk = lazyModule(async () => {
  const [client, stdio, http, sse, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    ...client,
    ...stdio,
    ...http,
    ...sse,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
  };
});

export type McpTool = { name: string; description?: string; inputSchema?: unknown };

/** A resource a server offers as context (attached to a message like a referenced file). */
export type McpResource = { uri: string; name: string; title?: string; description?: string; mimeType?: string };
/** A prompt a server offers (the composer fills in its arguments and gets its text). */
export type McpPrompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
};
export type McpLists = { resources: McpResource[]; prompts: McpPrompt[] };

export type OpenedConnection = {
  connection: McpConnection;
  tools: McpTool[];
  truncatedFrom?: number;
} & McpLists;

/** A stdio server's command as configured, with its working folder and environment. */
export type PlainCommand = { command: string; args: string[]; cwd: string; env: Record<string, string> };
/** What to spawn instead (the sandbox's command line), and what to release once the process is gone. */
export type LaunchedCommand = { command: string; args: string[]; env: Record<string, string>; release(): void };
/** Turns a stdio server's command into the one spawned (./sandboxed-launch.ts); may refuse with an Error. */
export type StdioLaunch = (plain: PlainCommand) => Promise<LaunchedCommand>;

export type ConnectOptions = {
  entry: McpServerEntry;
  /** Resolved secrets and the working folder. */
  env: Record<string, string>;
  headers: Record<string, string>;
  cwd: string;
  connectTimeoutMs: number;
  /** Wraps a stdio server's command before it is spawned (the sandbox); absent: it runs as configured. */
  launch?: StdioLaunch;
  /** Stops a start under way (the server was switched off or removed meanwhile). */
  signal?: AbortSignal;
  onToolsChanged: (tools: McpTool[]) => void;
  /** The server's resources or prompts changed (`list_changed`). */
  onListsChanged: (lists: Partial<McpLists>) => void;
  onClosed: (reason: string) => void;
};

export class McpConnection {
  private stderr = "";
  private closedByUs = false;
  private reportedLost = false;
  private ready = false;
  private onLost?: (reason: string) => void;
  /** Ends what the launch needed (the sandbox's temporary folder, its proxy); once, when the process is gone. */
  private release = () => {};

  private constructor(
    readonly client: Client,
    private readonly transport: Transport,
    private readonly stdio: StdioClientTransport | undefined,
    readonly transportKind: McpTransport,
  ) {}

  get stderrTail(): string {
    return this.stderr;
  }

  get pid(): number | null {
    return this.stdio ? this.stdio.pid : null;
  }

  /**
   * Connects over the entry's transport. An `http` server that answers the Streamable HTTP POST with
   * 404 or 405 is an older HTTP+SSE server (the specification's backwards-compatibility rule): the
   * same URL is tried again over SSE.
   */
  static async open(options: ConnectOptions): Promise<OpenedConnection> {
    if (options.entry.transport !== "http") return McpConnection.openOver(options.entry.transport, options);
    try {
      return await McpConnection.openOver("http", options);
    } catch (error) {
      const code = (error as { httpStatus?: number }).httpStatus;
      if (code !== 404 && code !== 405) throw error;
      return McpConnection.openOver("sse", options).catch((sseError: Error) => {
        throw new Error(`${(error as Error).message}; over SSE: ${sseError.message}`);
      });
    }
  }

  private static async openOver(transportKind: McpTransport, options: ConnectOptions): Promise<OpenedConnection> {
    const { entry } = options;
    const {
      Client,
      getDefaultEnvironment,
      StdioClientTransport,
      StreamableHTTPClientTransport,
      SSEClientTransport,
      ToolListChangedNotificationSchema,
      ResourceListChangedNotificationSchema,
      PromptListChangedNotificationSchema,
    } = await loadMcpSdk();
    const plain: PlainCommand = {
      command: entry.command!,
      args: entry.args ?? [],
      cwd: options.cwd,
      // The SDK's minimal environment (PATH, HOME, …) plus the server's own: none of Parley's secrets.
      env: { ...getDefaultEnvironment(), ...options.env },
    };
    const launched =
      transportKind !== "stdio" ? undefined : options.launch ? await options.launch(plain) : { ...plain, release() {} };
    const stdio = launched
      ? new StdioClientTransport({
          command: launched.command,
          args: launched.args,
          env: launched.env,
          cwd: options.cwd,
          stderr: "pipe",
          maxBufferSize: MAX_STDIO_MESSAGE_BYTES,
        })
      : undefined;
    const requestInit = { headers: options.headers };
    const transport: Transport =
      stdio ??
      (transportKind === "sse"
        ? new SSEClientTransport(new URL(entry.url!), { requestInit, eventSourceInit: { fetch: withHeaders(options) } })
        : new StreamableHTTPClientTransport(new URL(entry.url!), { requestInit }));
    const client = new Client({ name: "parley", version: "1" }, { capabilities: {} });
    const connection = new McpConnection(client, transport, stdio, transportKind);
    if (launched) connection.release = once(launched.release);
    if (stdio) {
      stdio.stderr?.on("data", (chunk: Buffer) => {
        connection.stderr = (connection.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
      });
      // Only the status page reads it: a failing pipe must not end Parley (the SDK reports the exit).
      stdio.stderr?.on("error", () => {});
    }
    client.onclose = () => {
      connection.release();
      connection.lost(connection.exitDescription());
    };
    // A remote server has no process to watch: its event stream failing for good, or an answer that
    // it no longer knows our session (it restarted), is how we learn it is gone.
    client.onerror = (error) => {
      if (connection.ready && stdio === undefined && isLostRemote(error))
        connection.lost(`the connection was lost: ${describeError(error)}`);
    };
    connection.onLost = options.onClosed;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      const listed = await connection.listTools().catch(() => undefined);
      if (listed) options.onToolsChanged(listed.tools);
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      const resources = await connection.listResources().catch(() => undefined);
      if (resources) options.onListsChanged({ resources });
    });
    client.setNotificationHandler(PromptListChangedNotificationSchema, async () => {
      const prompts = await connection.listPrompts().catch(() => undefined);
      if (prompts) options.onListsChanged({ prompts });
    });
    const deadline = Date.now() + options.connectTimeoutMs;
    try {
      const connecting = client.connect(transport, { timeout: options.connectTimeoutMs });
      // The SDK spawns the child as connect begins: from here on it dies with Parley whatever happens.
      if (stdio?.pid) liveChildren.add(stdio.pid);
      await withDeadline(connecting, deadline, options);
      const listed = await withDeadline(connection.listTools(Math.max(1, deadline - Date.now())), deadline, options);
      // Resources and prompts are extras: a server that fails to list them still serves its tools.
      const [resources, prompts] = await withDeadline(
        Promise.all([
          connection.listResources(Math.max(1, deadline - Date.now())).catch(() => []),
          connection.listPrompts(Math.max(1, deadline - Date.now())).catch(() => []),
        ]),
        deadline,
        options,
      );
      connection.ready = true;
      return { connection, ...listed, resources, prompts };
    } catch (error) {
      await connection.close();
      const failure = new Error(
        `${describeError(error)}${connection.stderr ? `; stderr: ${connection.stderr.slice(-500)}` : ""}`,
      ) as Error & { httpStatus?: number };
      failure.httpStatus = httpStatusOf(error);
      throw failure;
    }
  }

  /** Reported once, and never for a close we asked for. */
  private lost(reason: string): void {
    if (this.closedByUs || this.reportedLost) return;
    this.reportedLost = true;
    this.onLost?.(reason);
  }

  private async listTools(timeout?: number): Promise<{ tools: McpTool[]; truncatedFrom?: number }> {
    const tools: McpTool[] = [];
    let cursor: string | undefined;
    let total = 0;
    do {
      const page = await this.client.listTools(cursor ? { cursor } : undefined, timeout ? { timeout } : undefined);
      total += page.tools.length;
      for (const tool of page.tools)
        if (tools.length < MAX_TOOLS)
          tools.push({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
      cursor = page.nextCursor;
    } while (cursor && total < 100_000);
    return total > MAX_TOOLS ? { tools, truncatedFrom: total } : { tools };
  }

  /** The server's resources (none unless it declares the capability), at most MAX_TOOLS of them. */
  async listResources(timeout?: number): Promise<McpResource[]> {
    if (!this.client.getServerCapabilities()?.resources) return [];
    const out: McpResource[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await this.client.listResources(cursor ? { cursor } : undefined, timeout ? { timeout } : undefined);
      for (const r of page.resources)
        if (out.length < MAX_TOOLS)
          out.push({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType });
      cursor = page.nextCursor;
    } while (cursor && out.length < MAX_TOOLS && ++pages < 100);
    return out;
  }

  /** The server's prompts (none unless it declares the capability), at most MAX_TOOLS of them. */
  async listPrompts(timeout?: number): Promise<McpPrompt[]> {
    if (!this.client.getServerCapabilities()?.prompts) return [];
    const out: McpPrompt[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await this.client.listPrompts(cursor ? { cursor } : undefined, timeout ? { timeout } : undefined);
      for (const p of page.prompts)
        if (out.length < MAX_TOOLS)
          out.push({ name: p.name, title: p.title, description: p.description, arguments: p.arguments });
      cursor = page.nextCursor;
    } while (cursor && out.length < MAX_TOOLS && ++pages < 100);
    return out;
  }

  async close(): Promise<void> {
    this.closedByUs = true;
    const pid = this.pid;
    await this.client.close().catch(() => {});
    this.release();
    if (pid) liveChildren.delete(pid);
  }

  /** The connection was found lost (the server exited, went away or restarted). */
  get wasLost(): boolean {
    return this.reportedLost;
  }

  /** A call failed this way: the remote server no longer knows our session (it restarted). */
  isSessionGone(error: unknown): boolean {
    return this.transportKind !== "stdio" && isUnknownSession(error);
  }

  private exitDescription(): string {
    const tail = this.stderr.trim().split("\n").slice(-3).join(" | ");
    return `the server stopped${tail ? ` (stderr: ${tail.slice(-300)})` : ""}`;
  }
}

/** `fn`, run at most once. */
function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}

export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT") return "the command was not found";
  if (code === "EACCES") return "the command may not be run (permission denied)";
  const message = withoutMarkup((error as Error)?.message ?? String(error));
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

/**
 * An error page's text, not its markup: a web server that is not an MCP endpoint answers with HTML
 * ("<!DOCTYPE html>…<pre>Cannot POST /mcp</pre>…"), which the status line would otherwise show raw.
 */
export function withoutMarkup(message: string): string {
  if (!/<(?:!doctype|html|body|head|pre|title)\b/i.test(message)) return message;
  return message
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
}

/** The HTTP status an SDK transport error carries (Streamable HTTP and SSE errors name it `code`). */
function httpStatusOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "number" && code >= 100 && code < 600) return code;
  const status = /\(HTTP (\d{3})\)/.exec((error as Error)?.message ?? "");
  return status ? Number(status[1]) : undefined;
}

/** A 404, or a 400 that speaks of the session: the server dropped (or never had) our `Mcp-Session-Id`. */
function isUnknownSession(error: unknown): boolean {
  const status = httpStatusOf(error);
  return status === 404 || (status === 400 && /session/i.test((error as Error)?.message ?? ""));
}

/** A remote server is gone for good, not a passing hiccup the SDK retries on its own. */
function isLostRemote(error: unknown): boolean {
  if (isUnknownSession(error)) return true;
  const message = (error as Error)?.message ?? "";
  if (/Maximum reconnection attempts|Failed to reconnect/i.test(message)) return true;
  // The SSE transport's stream broke (an EventSource error after it connected).
  return (error as Error)?.constructor?.name === "SseError";
}

/**
 * The start-up time limit over everything (the SDK's own timeout covers one request, and a server that
 * never sends the SSE `endpoint` event would wait forever).
 */
function withDeadline<T>(promise: Promise<T>, deadline: number, options: ConnectOptions): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const { signal } = options;
  const timeout = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Error("the server was stopped while it started"));
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the server did not finish starting within ${Math.round(options.connectTimeoutMs / 1000)} s (mcp.startupTimeoutMs)`,
          ),
        ),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  });
}

/** The EventSource's requests carry the server's headers too (the SDK sends `requestInit` only with POSTs). */
function withHeaders(options: ConnectOptions): typeof fetch {
  return (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as object), ...options.headers } });
}

/**
 * Every stdio server child still running. The SDK's close takes up to four seconds with a child that
 * ignores SIGTERM, and Parley may be gone before then (its stop has a deadline): whatever is still here
 * when the process exits is killed outright, so no server outlives Parley.
 */
const liveChildren = new Set<number>();
process.on("exit", () => {
  for (const pid of liveChildren) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
