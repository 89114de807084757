// The gateway provider: its model catalog slices and the account balance (`{supported:false}` from
// a server that keeps none).
import type { Router } from "express";
import { routeRouter } from "../platform/http/router";
import { fetchCredits } from "./credits";
import { modelsForSlice } from "./gateway-models";
import type { ConnectionResolver } from "./connection-resolver";
import type { ModelCatalog } from "./model-catalog";
import type { SettingsService } from "../settings/settings-service";
import { route } from "../platform/http/define-route";
import { upstreamCall } from "../chat/upstream-call";

export type GatewayRoutesDeps = { settings: SettingsService; connections: ConnectionResolver; catalog: ModelCatalog };

export function gatewayRoutes(deps: GatewayRoutesDeps): Router {
  const router = routeRouter();

  route(router, "GET /api/providers/gateway/models", async ({ query }) => {
    const settings = await deps.settings.resolvedUnredacted();
    const connection = await deps.connections.forProvider(settings, "gateway", false);
    return upstreamCall(() => modelsForSlice(deps.catalog, query.slice, connection, settings));
  });

  route(router, "GET /api/providers/gateway/credits", async () => {
    const settings = await deps.settings.resolvedUnredacted();
    const connection = await deps.connections.forProvider(settings, "gateway");
    return upstreamCall(() => fetchCredits(connection));
  });

  return router;
}
