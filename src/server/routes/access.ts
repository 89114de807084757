// /api/access/*: the optional password, passkeys and browser sessions (contract 6.7), and the plain
// sign-in page a browser without a session sees once a password or a passkey is set.
import { randomBytes } from "node:crypto";
import type { NextFunction, Request, Response, Router } from "express";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { z } from "zod";
import { AppError, invalid } from "../../core/app-error";
import { parseHostHeader, resolvedPath } from "../../core/request-path";
import type { AccessService, RelyingParty } from "../../services/access-service";
import { clearSessionCookie, isAuthenticated, sessionId, setSessionCookie, type AccessDeps } from "../middleware/access";
import { parseWith } from "../middleware/validation";
import { loginPage } from "../pages/login-page";
import { routeRouter } from "./router";
import { clearPasswordBodySchema, credentialResponseSchema, loginBodySchema, passkeyNameSchema, passwordBodySchema } from "../../shared/api-routes";
import { WEB_UI_CSP } from "./web-ui";

const ATTEMPT_COOKIE = "parley_webauthn";
const ATTEMPT_TTL_S = 300;

const renameBody = z.strictObject({ name: passkeyNameSchema });
const registerBody = z.strictObject({ name: passkeyNameSchema, response: credentialResponseSchema });
const passkeyLoginBody = z.strictObject({ response: credentialResponseSchema });

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

  router.get("/api/access/status", (req, res) => {
    res.json(access.status(isAuthenticated(req, deps)));
  });

  router.post("/api/access/password", async (req, res) => {
    const body = parseWith(passwordBodySchema, req.body);
    await access.setPassword(body.current, body.next);
    sessionsEnded();
    // Changing the password ends every session, this one too: open a fresh one for the person who changed it.
    if (sessionId(req)) openSession(req, res, access);
    res.status(204).end();
  });

  router.delete("/api/access/password", async (req, res) => {
    const body = parseWith(clearPasswordBodySchema, req.body ?? {});
    await access.clearPassword(body.current);
    sessionsEnded();
    if (sessionId(req)) openSession(req, res, access);
    res.status(204).end();
  });

  router.post("/api/access/login", async (req, res) => {
    const body = parseWith(loginBodySchema, req.body);
    await access.login(clientOf(req), body.password);
    openSession(req, res, access);
    res.status(204).end();
  });

  router.post("/api/access/logout", (req, res) => {
    const cookie = sessionId(req);
    if (cookie) access.endSession(cookie);
    sessionsEnded();
    clearSessionCookie(res);
    res.status(204).end();
  });

  router.get("/api/access/sessions", (req, res) => {
    res.json(access.listSessions(sessionId(req)));
  });

  router.delete("/api/access/sessions/:id", (req, res) => {
    access.revokeSession(req.params.id);
    sessionsEnded();
    res.status(204).end();
  });

  /** Revoke every session but this one. */
  router.delete("/api/access/sessions", (req, res) => {
    const revoked = access.revokeOthers(sessionId(req));
    sessionsEnded();
    res.json({ revoked });
  });

  router.get("/api/access/passkeys", (_req, res) => {
    res.json(access.listPasskeys());
  });

  router.patch("/api/access/passkeys/:id", (req, res) => {
    access.renamePasskey(req.params.id, parseWith(renameBody, req.body).name);
    res.status(204).end();
  });

  router.delete("/api/access/passkeys/:id", (req, res) => {
    access.deletePasskey(req.params.id);
    res.status(204).end();
  });

  router.post("/api/access/passkeys/register/options", async (req, res) => {
    res.json(await access.registrationOptions(ownerOf(req), relyingParty(req)));
  });

  router.post("/api/access/passkeys/register/verify", async (req, res) => {
    const body = parseWith(registerBody, req.body);
    res.status(201).json(await access.verifyRegistration(ownerOf(req), relyingParty(req), body.name, body.response as never));
  });

  router.post("/api/access/login/passkey/options", async (req, res) => {
    // A locked-out browser hears so first, whatever else is wrong with its request.
    access.ensureLoginOpen(clientOf(req));
    // The challenge belongs to this browser only: a cookie of its own, short-lived.
    const attempt = randomBytes(24).toString("base64url");
    const options = await access.authenticationOptions(clientOf(req), attempt, relyingParty(req));
    res.setHeader("Set-Cookie", serializeCookie(ATTEMPT_COOKIE, attempt, { httpOnly: true, sameSite: "strict", path: "/api/access/", maxAge: ATTEMPT_TTL_S }));
    res.json(options);
  });

  router.post("/api/access/login/passkey/verify", async (req, res) => {
    access.ensureLoginOpen(clientOf(req));
    const body = parseWith(passkeyLoginBody, req.body);
    const attempt = req.headers.cookie ? parseCookies(req.headers.cookie)[ATTEMPT_COOKIE] : undefined;
    if (!attempt) throw invalid("this passkey sign-in was not started here; start again");
    await access.verifyAuthentication(clientOf(req), attempt, relyingParty(req), body.response as never);
    openSession(req, res, access);
    res.status(204).end();
  });

  // The sign-in page: plain, served by the server, working without the app bundle.
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
  const port = name && host.lastIndexOf(":") > host.lastIndexOf("]") ? Number(host.slice(host.lastIndexOf(":") + 1)) : undefined;
  const localhostUrl = name && isIpAddress(name) ? `http://localhost${port ? `:${port}` : ""}/login` : undefined;
  res.setHeader("Content-Security-Policy", WEB_UI_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("Cache-Control", "no-store");
  res.type("html").send(loginPage({ passwordSet: access.passwordSet(), passkeys: access.listPasskeys().length > 0, localhostUrl }));
}
