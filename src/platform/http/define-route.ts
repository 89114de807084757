// Registers handlers against the route table (src/shared/api-routes.ts): method and path come from the
// key, the query and body are parsed with the declared schemas (400 `invalid_request` with the zod
// issues), and a JSON handler's result is typed by the declared response. No route file writes a path.
import type { Request, Response, Router } from "express";
import type { z } from "zod";
import {
  apiRoutes,
  downloadRoutes,
  noContent,
  pageRoutes,
  pathOf,
  methodOf,
  streamRoutes,
  uploadRoutes,
  type ApiRouteKey,
  type DownloadRouteKey,
  type PageRouteKey,
  type PathOf,
  type PathParams,
  type StreamRouteKey,
  type UploadRouteKey,
} from "../../shared/api-routes";
import { parseWith } from "./validation";

type Parsed<S, F extends "query" | "body"> = S extends { [P in F]: infer T extends z.ZodType }
  ? z.output<T>
  : undefined;
type Params<K extends string> =
  PathParams<PathOf<K>> extends infer P ? (unknown extends P ? Record<string, never> : P) : never;

/** What a handler gets: the path parameters, the parsed query and body (`undefined` where none is declared), and express's own. */
export type RouteInput<K extends string, S> = {
  params: Params<K>;
  query: Parsed<S, "query">;
  body: Parsed<S, "body">;
  req: Request;
  res: Response;
};

export type RouteOptions = {
  /**
   * Runs before the query and body are parsed, for a check whose answer must win over a malformed
   * request (a locked-out sign-in hears 429 whatever it sent).
   */
  before?: (req: Request) => void | Promise<void>;
};

const CREATED = Symbol("created");
const PARTS = Symbol("json parts");

/** A 201 answer, for a route the table marks `created`. */
export type Created<T> = { readonly [CREATED]: T };
export function created<T>(body: T): Created<T> {
  return { [CREATED]: body };
}

/**
 * A JSON body written a part at a time, each written out before the next is read (a producer may
 * reuse its buffer, as the mention worker does). `T` is what the parts add up to: the route's response.
 */
export type JsonParts<T> = { readonly [PARTS]: AsyncIterable<Buffer | string>; readonly _answer?: T };
export function jsonParts<T>(parts: AsyncIterable<Buffer | string>): JsonParts<T> {
  return { [PARTS]: parts };
}

type ApiSpec<K extends ApiRouteKey> = (typeof apiRoutes)[K];
type Answer<K extends ApiRouteKey> = z.output<ApiSpec<K>["response"]>;
/** A `noContent` route returns nothing (204); a `created` one may return `created(body)` (201); any other returns its body (200). */
export type ApiResult<K extends ApiRouteKey> = [Answer<K>] extends [undefined]
  ? void
  : Answer<K> | JsonParts<Answer<K>> | (ApiSpec<K> extends { created: true } ? Created<Answer<K>> : never);

type Handler<K extends string, S, R> = (input: RouteInput<K, S>) => R | Promise<R>;
type Method = "get" | "post" | "put" | "patch" | "delete";

/** Registers on the key's method and path; runs `before`, then parses the declared query and body, then the handler. */
function register<K extends string, S extends object>(
  router: Router,
  key: K,
  spec: S,
  options: RouteOptions,
  run: (input: RouteInput<K, S>) => Promise<void>,
): void {
  const method = methodOf(key).toLowerCase() as Method;
  const schemas = spec as { query?: z.ZodType; body?: z.ZodType };
  router.route(pathOf(key))[method](async (req: Request, res: Response) => {
    await options.before?.(req);
    const query = schemas.query ? parseWith(schemas.query, req.query, "the query") : undefined;
    const body = schemas.body ? parseWith(schemas.body, req.body) : undefined;
    await run({ params: req.params as Params<K>, query, body, req, res } as RouteInput<K, S>);
  });
}

/** A JSON route of `apiRoutes`: `route(router, "GET /api/projects/:id/trust", async ({ params }) => …)`. */
export function route<K extends ApiRouteKey>(
  router: Router,
  key: K,
  handler: Handler<K, ApiSpec<K>, ApiResult<K>>,
  options: RouteOptions = {},
): void {
  const spec = apiRoutes[key];
  register(router, key, spec, options, async (input) => {
    const result: unknown = await handler(input);
    const { res } = input;
    if (spec.response === noContent) {
      res.status(204).end();
    } else if (typeof result === "object" && result !== null && PARTS in result) {
      await sendParts(res, (result as JsonParts<unknown>)[PARTS]);
    } else if (typeof result === "object" && result !== null && CREATED in result) {
      res.status(201).json((result as Created<unknown>)[CREATED]);
    } else {
      res.json(result);
    }
  });
}

/** An SSE route of `streamRoutes`: the handler opens the stream on `res` (or answers 204) itself. */
export function streamRoute<K extends StreamRouteKey>(
  router: Router,
  key: K,
  handler: Handler<K, (typeof streamRoutes)[K], void>,
): void {
  register(router, key, streamRoutes[key], {}, async (input) => handler(input));
}

/** A multipart route of `uploadRoutes`: the handler reads the form from `req`; its result is sent as JSON. */
export function uploadRoute<K extends UploadRouteKey>(
  router: Router,
  key: K,
  handler: Handler<K, object, z.output<(typeof uploadRoutes)[K]["response"]>>,
): void {
  register(router, key, {}, {}, async (input) => {
    input.res.json(await handler(input));
  });
}

type DownloadSpec<K extends DownloadRouteKey> = (typeof downloadRoutes)[K];
/** What a download handler answers: the file's text, its name, and which of the route's formats it is in. */
export type Download<K extends DownloadRouteKey> = {
  format: keyof DownloadSpec<K>["types"] & string;
  fileName: string;
  body: string;
};

/**
 * A file of `downloadRoutes`: sent as an attachment under the handler's file name (non-ASCII names
 * as RFC 6266 `filename*`), with the media type the table gives its format.
 */
export function downloadRoute<K extends DownloadRouteKey>(
  router: Router,
  key: K,
  handler: Handler<K, DownloadSpec<K>, Download<K>>,
): void {
  const types: Record<string, string> = downloadRoutes[key].types;
  register(router, key, downloadRoutes[key], {}, async (input) => {
    const file = await handler(input);
    input.res.attachment(file.fileName);
    input.res.type(`${types[file.format]}; charset=utf-8`);
    input.res.send(file.body);
  });
}

/** An HTML page of `pageRoutes`, which the handler writes to `res`. */
export function pageRoute<K extends PageRouteKey>(
  router: Router,
  key: K,
  handler: Handler<K, (typeof pageRoutes)[K], void>,
): void {
  register(router, key, pageRoutes[key], {}, async (input) => handler(input));
}

/**
 * Writes the parts as the client takes them. A client that goes away stops the reading, which lets
 * the producer release what it holds. Failing midway, with the status already sent, the connection is
 * cut: the client sees a broken body, never a wrong one.
 */
async function sendParts(res: Response, parts: AsyncIterable<Buffer | string>): Promise<void> {
  res.type("json");
  try {
    for await (const part of parts) {
      await new Promise<void>((resolve, reject) => {
        if (res.destroyed) return reject(new Error("the client went away"));
        const gone = () => reject(new Error("the client went away"));
        res.once("close", gone);
        res.write(part, (error) => {
          res.off("close", gone);
          if (error) reject(error);
          else resolve();
        });
      });
    }
    res.end();
  } catch {
    res.destroy();
  }
}
