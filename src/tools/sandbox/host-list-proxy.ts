// The network of a sandboxed command whose settings list hosts (`sandbox.network: ["registry.npmjs.org"]`):
// the command has no network of its own, only an HTTP proxy (`HTTP_PROXY`, `HTTPS_PROXY`) that Parley
// answers. HTTPS goes through `CONNECT host:port`, plain HTTP as absolute-form requests; each is checked
// against the list before Parley opens the connection, and bytes only ever flow to the host that was
// checked. A program that ignores the proxy variables gets no network at all: it fails closed.
import http from "node:http";
import net from "node:net";

/** Whether `host` (as a request names it) is one of `allowed` (lower case, no trailing dot). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.trim().toLowerCase().replace(/\.$/, "");
  return name !== "" && allowed.includes(name);
}

/** `host:port` of a CONNECT request; undefined when it is not one (IPv6 literals are not listed hosts either). */
export function connectTarget(authority: string | undefined): { host: string; port: number } | undefined {
  const match = /^([^:/\s[\]]+):(\d{1,5})$/.exec(authority ?? "");
  if (!match) return undefined;
  const port = Number(match[2]);
  return port >= 1 && port <= 65_535 ? { host: match[1]!, port } : undefined;
}

const HOP_BY_HOP = new Set(["proxy-connection", "proxy-authorization", "connection", "keep-alive", "upgrade"]);

/** Headers without the hop-by-hop ones, which describe a single connection, not the message. */
function endToEnd(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
}

function refusal(hosts: readonly string[], host: string): string {
  return `Parley's sandbox does not allow ${host}: sandbox.network allows only ${hosts.join(", ")}\n`;
}

export class HostListProxy {
  private readonly server: http.Server;
  private readonly sockets = new Set<net.Socket>();
  private listener: net.Server | undefined;

  constructor(private readonly hosts: readonly string[]) {
    this.server = http.createServer((request, response) => this.forward(request, response));
    this.server.on("connect", (request: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
      this.tunnel(request, socket, head),
    );
    // A malformed request from the command gets a 400 from node, never an exception in Parley.
    this.server.on("clientError", (_error, socket: net.Socket) => socket.destroy());
  }

  /** Serves one connection the command opened (handed over by the bridge inside the sandbox). */
  accept(socket: net.Socket): void {
    this.track(socket);
    this.server.emit("connection", socket);
    socket.resume();
  }

  /** Listens on a loopback port (macOS, where the command reaches the proxy over TCP); the port. */
  async listen(): Promise<number> {
    const listener = net.createServer((socket) => this.accept(socket));
    this.listener = listener;
    await new Promise<void>((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(0, "127.0.0.1", () => resolve());
    });
    return (listener.address() as net.AddressInfo).port;
  }

  /** Ends every connection: the command is over. */
  close(): void {
    this.listener?.close();
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  }

  private tunnel(request: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    const target = connectTarget(request.url);
    if (!target || !hostAllowed(target.host, this.hosts)) {
      const text = target ? refusal(this.hosts, target.host) : "a CONNECT request names host:port\n";
      client.end(
        `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      );
      return;
    }
    const upstream = net.connect({ host: target.host, port: target.port });
    this.track(upstream);
    upstream.once("connect", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once("error", (error) => {
      if (client.writable && !upstream.readableEnded)
        client.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: text/plain\r\n\r\n${error.message}\n`);
      client.destroy();
    });
    client.once("close", () => upstream.destroy());
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
    let url: URL | undefined;
    try {
      url = new URL(request.url ?? "");
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== "http:") {
      response
        .writeHead(400, { "content-type": "text/plain" })
        .end("Parley's sandbox proxy takes http:// URLs and CONNECT\n");
      return;
    }
    if (!hostAllowed(url.hostname, this.hosts)) {
      response.writeHead(403, { "content-type": "text/plain" }).end(refusal(this.hosts, url.hostname));
      return;
    }
    const upstream = http.request(
      {
        host: url.hostname,
        port: url.port || 80,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: { ...endToEnd(request.headers), connection: "close" },
      },
      (answer) => {
        // The upstream connection closes after each answer; the command's may carry its next request.
        response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(response);
      },
    );
    upstream.on("socket", (socket) => this.track(socket));
    upstream.on("error", (error) => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`${error.message}\n`);
    });
    request.pipe(upstream);
  }
}
