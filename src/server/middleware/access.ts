// Who may talk to the server: loopback Host names only (DNS-rebinding defence), no foreign Origin on
// writes (CSRF defence), and on /api a Bearer token or a session cookie (opened by the token link, a
// password or a passkey; see access/session-cookie.ts).
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { AppError } from "../../platform/app-error";
import { isApiPath, isLoopbackHost, parseHostHeader } from "../../platform/http/request-path";
import { pathOf, publicRouteKeys, uploadRoutes } from "../../shared/api-routes";
import { isAuthenticated, sameSecret, setSessionCookie, type AccessDeps } from "../../access/session-cookie";

export { isAuthenticated, SESSION_COOKIE, type AccessDeps } from "../../access/session-cookie";

const WEBVIEW_ORIGIN = /^vscode-webview:\/\/[a-z0-9-]+$/i;

/** `/api` routes reachable without credentials, as the route table marks them (the callback proves itself with its `state`). */
export function isPublicApiRoute(method: string, path: string): boolean {
  return publicRouteKeys.has(`${method} ${path}`);
}

export function hostGuard(deps: AccessDeps): RequestHandler {
  return (req, _res, next) => {
    const header = req.headers.host;
    const name = header ? parseHostHeader(header) : undefined;
    if (name && (isLoopbackHost(name) || deps.allowedHosts().some((host) => host.toLowerCase() === name)))
      return next();
    next(
      new AppError(
        "forbidden",
        "this Host is not allowed; add it to the allowedHosts setting to reach Parley by that name",
      ),
    );
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Routes that take files (multipart) rather than JSON. */
/** Paths whose body is a multipart upload, from the route table. */
const MULTIPART_ROUTES = new Set(Object.keys(uploadRoutes).map(pathOf));

function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * State-changing requests with a body must say it is JSON (or multipart where a route takes files):
 * a form post or a `text/plain` "simple request" from another page never reaches a handler.
 */
export function contentTypeGuard(): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method) || !hasBody(req)) return next();
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    const expected = MULTIPART_ROUTES.has(req.path) ? "multipart/form-data" : "application/json";
    if (type === expected) return next();
    next(new AppError("unsupported_media_type", `send the body as ${expected}`));
  };
}

function isTrustedOrigin(origin: string, req: Request, deps: AccessDeps): boolean {
  return isWebviewOrigin(origin, deps) || origin === `${req.protocol}://${req.headers.host}`;
}

function isWebviewOrigin(origin: string, deps: AccessDeps): boolean {
  return WEBVIEW_ORIGIN.test(origin) || (deps.trustedOrigins?.().has(origin) ?? false);
}

/** Refuses state-changing requests sent by another site's page; answers webview CORS preflights. */
export function originGuard(deps: AccessDeps): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (origin && isWebviewOrigin(origin, deps)) {
      // The VS Code webview is its own origin: let it call the API with its Bearer token.
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      if (req.method === "OPTIONS") {
        res.setHeader("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE");
        res.setHeader("Access-Control-Allow-Headers", "Authorization, Content-Type, Last-Event-ID");
        res.setHeader("Access-Control-Max-Age", "600");
        res.status(204).end();
        return;
      }
    }
    if (!SAFE_METHODS.has(req.method) && origin !== undefined && !isTrustedOrigin(origin, req, deps)) {
      next(new AppError("forbidden", "cross-site request refused"));
      return;
    }
    next();
  };
}

/**
 * Credentials for every path the router could hand to an API handler, in any spelling; only the exact,
 * canonical spelling of a public route is open.
 */
export function requireAuth(deps: AccessDeps): RequestHandler {
  return (req, _res, next) => {
    if (!isApiPath(req.path) || isPublicApiRoute(req.method, req.path)) return next();
    if (isAuthenticated(req, deps)) return next();
    next(new AppError("unauthorized", "sign in with the link Parley printed, or send Authorization: Bearer <token>"));
  };
}

/** `GET /?token=…`: trades the start token for an HttpOnly session cookie and cleans the URL. */
export function tokenLogin(deps: AccessDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = req.query.token;
    if (req.path !== "/" || typeof token !== "string") return next();
    if (!sameSecret(token, deps.token)) {
      next(new AppError("unauthorized", "this login link is not valid (Parley makes a new one at every start)"));
      return;
    }
    setSessionCookie(res, deps.access.openSession(String(req.headers["user-agent"] ?? "")), deps.access.idleMs);
    // Relative, so a server reached through a path prefix (a proxy) lands on its own root.
    res.redirect(302, "./");
  };
}
