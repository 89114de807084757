// A real HTTP server on loopback for web_fetch's tests: routes by path, every request it received
// kept in `hits` (so a test proves what never reached it), closed with its open sockets.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type WebRoute = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export type WebServer = {
  port: number;
  /** `http://127.0.0.1:<port><path>`, or with another host name (resolved by the test's resolver). */
  url(path: string, host?: string): string;
  hits: { path: string; host: string | undefined; acceptEncoding: string | undefined }[];
  close(): Promise<void>;
};

export async function startWebServer(routes: Record<string, WebRoute>): Promise<WebServer> {
  const hits: WebServer["hits"] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    hits.push({ path, host: req.headers.host, acceptEncoding: req.headers["accept-encoding"] as string | undefined });
    const route = routes[path];
    if (route) return route(req, res);
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("no such page");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path, host = "127.0.0.1") => `http://${host}:${port}${path}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Writes `total` bytes of `fill` as fast as the client reads, and no faster; resolves with what was written. */
export function streamBytes(res: http.ServerResponse, total: number, fill = 0x61): Promise<number> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  let written = 0;
  return new Promise((resolve) => {
    const finish = () => resolve(written);
    res.once("close", finish);
    const pump = () => {
      while (written < total && !res.destroyed) {
        const size = Math.min(chunk.length, total - written);
        written += size;
        if (!res.write(size === chunk.length ? chunk : chunk.subarray(0, size))) return void res.once("drain", pump);
      }
      if (written >= total) res.end();
    };
    pump();
  });
}
