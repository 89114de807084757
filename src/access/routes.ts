// /api/access/*: the optional password, passkeys and browser sessions (contract 6.7), and the plain
// sign-in page a browser without a session sees once a password or a passkey is set.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response, Router } from "express";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { AppError, invalid } from "../platform/app-error";
import { parseHostHeader, resolvedPath } from "../platform/http/request-path";
import type { AccessService, RelyingParty } from "./access-service";
import { clearSessionCookie, isAuthenticated, sessionId, setSessionCookie, type AccessDeps } from "./session-cookie";
import type { z } from "zod";
import type { authenticationOptionsSchema, registrationOptionsSchema } from "../shared/api-routes";
import { created, route } from "../platform/http/define-route";
import { loginPage } from "./login-page";
import { routeRouter } from "../platform/http/router";
import { WEB_UI_CSP } from "../platform/http/web-ui-csp";

type RegistrationOptions = z.output<typeof registrationOptionsSchema>;
type AuthenticationOptions = z.output<typeof authenticationOptionsSchema>;

const ATTEMPT_COOKIE = "parley_webauthn";
const ATTEMPT_TTL_S = 300;

const isIpAddress = (name: string) => /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || name.includes(":");

/**
 * The relying party of a passkey ceremony is the page's host name. Browsers refuse an IP address,
 * so on 127.0.0.1 the answer says to open the same page on localhost.
 */
function relyingParty(req: Request): RelyingParty {
  const host = req.headers.host ?? "";
  const name = parseHostHeader(host);
  if (!name) throw invalid("the request has no usable Host");
  if (isIpAddress(name)) {
    const port = host.includes(":") ? host.slice(host.lastIndexOf(":")) : "";
    throw invalid(`passkeys need a host name, not an IP address: open http://localhost${port}/ and use passkeys there`);
  }
  return { rpId: name, origin: `${req.protocol}://${host}` };
}

function clientOf(req: Request): string {
  return req.socket.remoteAddress ?? "unknown";
}

/** Who asks to register a passkey: the session, or the per-start token's holder. */
function ownerOf(req: Request): string {
  const cookie = sessionId(req);
  return cookie ? `session:${cookie}` : "token";
}

function openSession(req: Request, res: Response, access: AccessService): void {
  setSessionCookie(res, access.openSession(String(req.headers["user-agent"] ?? "")), access.idleMs);
}

/** `sessionsEnded`: called after sessions were revoked, so their open event streams end too. */
export function accessRoutes(deps: AccessDeps, sessionsEnded: () => void = () => {}): Router {
  const router = routeRouter();
  const { access } = deps;
  // A locked-out browser hears so first, whatever else is wrong with its request.
  const loginOpen = { before: (req: Request) => access.ensureLoginOpen(clientOf(req)) };

  route(router, "GET /api/access/status", ({ req }) => access.status(isAuthenticated(req, deps)));

  route(router, "POST /api/access/password", async ({ body, req, res }) => {
    await access.setPassword(body.current, body.next);
    sessionsEnded();
    // Changing the password ends every session, this one too: open a fresh one for the person who changed it.
    if (sessionId(req)) openSession(req, res, access);
  });

  route(router, "DELETE /api/access/password", async ({ body, req, res }) => {
    await access.clearPassword(body.current);
    sessionsEnded();
    if (sessionId(req)) openSession(req, res, access);
  });

  route(router, "POST /api/access/login", async ({ body, req, res }) => {
    await access.login(clientOf(req), body.password);
    openSession(req, res, access);
  });

  route(router, "POST /api/access/logout", ({ req, res }) => {
    const cookie = sessionId(req);
    if (cookie) access.endSession(cookie);
    sessionsEnded();
    clearSessionCookie(res);
  });

  route(router, "GET /api/access/sessions", ({ req }) => access.listSessions(sessionId(req)));

  route(router, "DELETE /api/access/sessions/:id", ({ params }) => {
    access.revokeSession(params.id);
    sessionsEnded();
  });

  /** Revoke every session but this one. */
  route(router, "DELETE /api/access/sessions", ({ req }) => {
    const revoked = access.revokeOthers(sessionId(req));
    sessionsEnded();
    return { revoked };
  });

  route(router, "GET /api/access/passkeys", () => access.listPasskeys());

  route(router, "PATCH /api/access/passkeys/:id", ({ params, body }) => {
    access.renamePasskey(params.id, body.name);
  });

  route(router, "DELETE /api/access/passkeys/:id", ({ params }) => {
    access.deletePasskey(params.id);
  });

  // The WebAuthn library's JSON types are interfaces, which TypeScript does not match to the table's open
  // (`looseObject`) schemas; they are the same shape.
  route(
    router,
    "POST /api/access/passkeys/register/options",
    async ({ req }) => (await access.registrationOptions(ownerOf(req), relyingParty(req))) as RegistrationOptions,
  );

  route(router, "POST /api/access/passkeys/register/verify", async ({ body, req }) =>
    created(await access.verifyRegistration(ownerOf(req), relyingParty(req), body.name, body.response as never)),
  );

  route(
    router,
    "POST /api/access/login/passkey/options",
    async ({ req, res }) => {
      // The challenge belongs to this browser only: a cookie of its own, short-lived.
      const attempt = randomBytes(24).toString("base64url");
      const options = await access.authenticationOptions(clientOf(req), attempt, relyingParty(req));
      res.setHeader(
        "Set-Cookie",
        serializeCookie(ATTEMPT_COOKIE, attempt, {
          httpOnly: true,
          sameSite: "strict",
          path: "/api/access/",
          maxAge: ATTEMPT_TTL_S,
        }),
      );
      return options as AuthenticationOptions;
    },
    loginOpen,
  );

  route(
    router,
    "POST /api/access/login/passkey/verify",
    async ({ body, req, res }) => {
      const attempt = req.headers.cookie ? parseCookies(req.headers.cookie)[ATTEMPT_COOKIE] : undefined;
      if (!attempt) throw invalid("this passkey sign-in was not started here; start again");
      await access.verifyAuthentication(clientOf(req), attempt, relyingParty(req), body.response as never);
      openSession(req, res, access);
    },
    loginOpen,
  );

  // The sign-in page: not an /api route, and not in the route table: a plain page the server renders
  // (working without the app bundle) for a browser that has no session yet.
  router.get("/login", (req, res) => {
    sendLoginPage(req, res, access);
  });

  return router;
}

/** What the sign-in page itself loads (media/webview): open to a browser without a session. */
const LOGIN_ASSETS = new Set(["/login.js", "/favicon.ico", "/favicon.svg"]);
/**
 * The UI's bundle (scripts and styles, the same in every copy of Parley) stays open too: an app whose
 * session just ended can still load a chunk and show its own signed-out state. No page lives there.
 */
const BUNDLE_DIR = "/assets/";
/** Where the sign-in page is answered in place: its relative links (./login.js, ./api/…) resolve from these. */
const LOGIN_PAGE_PATHS = new Set(["/", "/index.html"]);
/** Deeper than this, a path gets a 404 rather than a redirect as long as itself. */
const MAX_REDIRECT_DEPTH = 32;

/**
 * With a password or passkey set, a browser without a session gets nothing of the app, whatever the
 * spelling (`//index.html`, `/%69ndex.html`, `/./`): the decision is made on the path a file server
 * resolves it to, and it allows only the sign-in page's own files. Any other page or file is the
 * sign-in page, or a redirect to it where its relative links would not resolve.
 */
export function loginGate(deps: AccessDeps) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (!deps.access.protectedUi() || isAuthenticated(req, deps)) return next();
    const resolved = resolvedPath(req.path);
    const folded = resolved.toLowerCase();
    if (LOGIN_ASSETS.has(folded) || folded.startsWith(BUNDLE_DIR)) {
      // Served under the name decided on, not the spelling that asked for it (the file server decodes once more).
      req.url = encodeURI(LOGIN_ASSETS.has(folded) ? folded : resolved).replace(/[?#]/g, encodeURIComponent);
      return next();
    }
    if (req.method !== "GET" && req.method !== "HEAD") return next(new AppError("unauthorized", "sign in first"));
    if (LOGIN_PAGE_PATHS.has(req.path)) return sendLoginPage(req, res, deps.access);
    const depth = req.path.split("/").length - 2;
    if (depth > MAX_REDIRECT_DEPTH) return next(new AppError("not_found", "no such page"));
    // Relative, so a server reached through a path prefix (a proxy) lands on its own sign-in page.
    res.setHeader("Cache-Control", "no-store");
    res.redirect(302, depth === 0 ? "./login" : `${"../".repeat(depth)}login`);
  };
}

function sendLoginPage(req: Request, res: Response, access: AccessService): void {
  const host = req.headers.host ?? "";
  const name = parseHostHeader(host);
  // The port comes from the parsed Host only: nothing of the header is echoed into the page otherwise.
  const port =
    name && host.lastIndexOf(":") > host.lastIndexOf("]") ? Number(host.slice(host.lastIndexOf(":") + 1)) : undefined;
  const localhostUrl = name && isIpAddress(name) ? `http://localhost${port ? `:${port}` : ""}/login` : undefined;
  res.setHeader("Content-Security-Policy", WEB_UI_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cache-Control", "no-store");
  res
    .type("html")
    .send(loginPage({ passwordSet: access.passwordSet(), passkeys: access.listPasskeys().length > 0, localhostUrl }));
}
