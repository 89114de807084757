// Sign in with the gateway and the account picker's rows.
import type { Router } from "express";
import { routeRouter } from "./router";
import { z } from "zod";
import type { GatewayAccounts } from "../../services/gateway-accounts";
import type { GatewayOAuth } from "../../services/gateway-oauth";
import { oauthResultPage } from "../pages/oauth-result-page";
import { parseWith } from "../middleware/validation";

export const OAUTH_CALLBACK_PATH = "/api/providers/gateway/oauth/callback";

export function gatewayOAuthRoutes(deps: { gatewayOAuth: GatewayOAuth; accounts: GatewayAccounts }): Router {
  const router = routeRouter();

  router.post("/api/providers/gateway/oauth/start", (req, res) => {
    const body = parseWith(z.strictObject({ returnTo: z.string().optional() }), req.body ?? {});
    // The callback comes back to this very server, by the name the browser used to reach it.
    const callbackUrl = `${req.protocol}://${req.headers.host}${OAUTH_CALLBACK_PATH}`;
    res.json(deps.gatewayOAuth.start(callbackUrl, body.returnTo));
  });

  router.get(OAUTH_CALLBACK_PATH, async (req, res) => {
    const returnTo = deps.gatewayOAuth.returnToFor(req.query.state);
    const result = await deps.gatewayOAuth.complete(req.query.code, req.query.state);
    const page = oauthResultPage(result, returnTo);
    res.status(result.ok ? 200 : 400).setHeader("Content-Security-Policy", page.csp).setHeader("Cache-Control", "no-store").type("html").send(page.html);
  });

  router.get("/api/providers/gateway/accounts", async (_req, res) => {
    res.json(await deps.accounts.list());
  });

  router.post("/api/providers/gateway/accounts/:id/activate", async (req, res) => {
    await deps.accounts.activate(req.params.id);
    res.status(204).end();
  });

  router.delete("/api/providers/gateway/accounts/:id", async (req, res) => {
    await deps.accounts.remove(req.params.id);
    res.status(204).end();
  });

  return router;
}
