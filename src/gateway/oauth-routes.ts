// Sign in with the gateway and the account picker's rows.
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import type { GatewayAccounts } from "./gateway-accounts";
import type { GatewayOAuth } from "./gateway-oauth";
import { pathOf } from "../shared/api-routes";
import { oauthResultPage } from "./oauth-result-page";
import { pageRoute, route } from "../platform/http/define-route";

/** Where the gateway sends the browser back; the VS Code host builds its external URL from it too. */
export const OAUTH_CALLBACK_PATH = pathOf("GET /api/providers/gateway/oauth/callback");

export function gatewayOAuthRoutes(deps: { gatewayOAuth: GatewayOAuth; accounts: GatewayAccounts }): Router {
  const router = routeRouter();

  route(router, "POST /api/providers/gateway/oauth/start", ({ body, req }) => {
    // The callback comes back to this very server, by the name the browser used to reach it.
    const callbackUrl = `${req.protocol}://${req.headers.host}${OAUTH_CALLBACK_PATH}`;
    return deps.gatewayOAuth.start(callbackUrl, body.returnTo);
  });

  // Every outcome is a page the browser shows, never a JSON error.
  pageRoute(router, "GET /api/providers/gateway/oauth/callback", async ({ query, res }) => {
    const returnTo = deps.gatewayOAuth.returnToFor(query.state);
    const result = await deps.gatewayOAuth.complete(query.code, query.state);
    const page = oauthResultPage(result, returnTo);
    res
      .status(result.ok ? 200 : 400)
      .setHeader("Content-Security-Policy", page.csp)
      .setHeader("Cache-Control", "no-store")
      .type("html")
      .send(page.html);
  });

  route(router, "GET /api/providers/gateway/accounts", () => deps.accounts.list());

  route(router, "POST /api/providers/gateway/accounts/:id/activate", async ({ params }) => {
    await deps.accounts.activate(params.id);
  });

  route(router, "DELETE /api/providers/gateway/accounts/:id", async ({ params }) => {
    await deps.accounts.remove(params.id);
  });

  return router;
}
