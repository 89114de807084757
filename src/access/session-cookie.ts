// Who a request is: the per-start token (Bearer) or a session cookie (opened by the token link, a
// password or a passkey), and the cookie itself. The access middleware and the sign-in routes share it.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import type { AccessService } from "./access-service";
import type { SessionsRepo } from "./sessions-repo";

export const SESSION_COOKIE = "parley_session";

export type AccessDeps = {
  token: string;
  sessions: SessionsRepo;
  access: AccessService;
  /** Extra Host names the user allowed in settings. */
  allowedHosts: () => string[];
  /** Origins the in-process editor host vouches for (a code-server webview's origin). */
  trustedOrigins?: () => ReadonlySet<string>;
};

export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

function bearer(req: Request): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
}

export function sessionId(req: Request): string | undefined {
  return req.headers.cookie ? parseCookies(req.headers.cookie)[SESSION_COOKIE] : undefined;
}

export function isAuthenticated(req: Request, deps: AccessDeps): boolean {
  const token = bearer(req);
  if (token !== undefined) return sameSecret(token, deps.token);
  const session = sessionId(req);
  return session !== undefined && deps.sessions.touch(session, deps.access.idleMs);
}

/** The HttpOnly, SameSite=Strict session cookie, living as long as the session may stay idle. */
export function setSessionCookie(res: Response, id: string, idleMs: number): void {
  res.setHeader(
    "Set-Cookie",
    serializeCookie(SESSION_COOKIE, id, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge: Math.floor(idleMs / 1000),
    }),
  );
}

export function clearSessionCookie(res: Response): void {
  res.setHeader(
    "Set-Cookie",
    serializeCookie(SESSION_COOKIE, "", { httpOnly: true, sameSite: "strict", path: "/", maxAge: 0 }),
  );
}
