// One live connection to an MCP server over stdio or Streamable HTTP, on the official SDK: connect
// with a time limit, list every tool (paginated), follow `tools/list_changed`, keep the tail of the
// server's stderr for the status page, and report when the connection ends.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerEntry } from "../../shared/settings";
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
  const [client, stdio, http, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return { ...client, ...stdio, ...http, ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema };
});

export type McpTool = { name: string; description?: string; inputSchema?: unknown };

export type ConnectOptions = {
  entry: McpServerEntry;
  /** Resolved secrets and the working folder. */
  env: Record<string, string>;
  headers: Record<string, string>;
  cwd: string;
  connectTimeoutMs: number;
  onToolsChanged: (tools: McpTool[]) => void;
  onClosed: (reason: string) => void;
};

export class McpConnection {
  private stderr = "";
  private closedByUs = false;

  private constructor(
    readonly client: Client,
    private readonly transport: Transport,
    private readonly stdio: StdioClientTransport | undefined,
  ) {}

  get stderrTail(): string {
    return this.stderr;
  }

  get pid(): number | null {
    return this.stdio ? this.stdio.pid : null;
  }

  static async open(
    options: ConnectOptions,
  ): Promise<{ connection: McpConnection; tools: McpTool[]; truncatedFrom?: number }> {
    const { entry } = options;
    const {
      Client,
      getDefaultEnvironment,
      StdioClientTransport,
      StreamableHTTPClientTransport,
      ToolListChangedNotificationSchema,
    } = await loadMcpSdk();
    const stdio =
      entry.transport === "stdio"
        ? new StdioClientTransport({
            command: entry.command!,
            args: entry.args ?? [],
            // The SDK's minimal environment (PATH, HOME, …) plus the server's own: none of Parley's secrets.
            env: { ...getDefaultEnvironment(), ...options.env },
            cwd: options.cwd,
            stderr: "pipe",
            maxBufferSize: MAX_STDIO_MESSAGE_BYTES,
          })
        : undefined;
    const transport: Transport =
      stdio ?? new StreamableHTTPClientTransport(new URL(entry.url!), { requestInit: { headers: options.headers } });
    const client = new Client({ name: "parley", version: "1" }, { capabilities: {} });
    const connection = new McpConnection(client, transport, stdio);
    if (stdio) {
      stdio.stderr?.on("data", (chunk: Buffer) => {
        connection.stderr = (connection.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
      });
      // Only the status page reads it: a failing pipe must not end Parley (the SDK reports the exit).
      stdio.stderr?.on("error", () => {});
    }
    client.onclose = () => {
      if (!connection.closedByUs) options.onClosed(connection.exitDescription());
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      const listed = await connection.listTools().catch(() => undefined);
      if (listed) options.onToolsChanged(listed.tools);
    });
    try {
      await client.connect(transport, { timeout: options.connectTimeoutMs });
      const listed = await connection.listTools(options.connectTimeoutMs);
      return { connection, ...listed };
    } catch (error) {
      await connection.close();
      throw new Error(
        `${describeError(error)}${connection.stderr ? `; stderr: ${connection.stderr.slice(-500)}` : ""}`,
      );
    }
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

  async close(): Promise<void> {
    this.closedByUs = true;
    await this.client.close().catch(() => {});
  }

  private exitDescription(): string {
    const tail = this.stderr.trim().split("\n").slice(-3).join(" | ");
    return `the server stopped${tail ? ` (stderr: ${tail.slice(-300)})` : ""}`;
  }
}

export function describeError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOENT") return "the command was not found";
  if (code === "EACCES") return "the command may not be run (permission denied)";
  const message = (error as Error)?.message ?? String(error);
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}
