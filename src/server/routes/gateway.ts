// The gateway provider: its model catalog slices and the account balance (`{supported:false}` from
// a server that keeps none).
import type { Router } from "express";
import { routeRouter } from "./router";
import { z } from "zod";
import { modelSliceSchema } from "../../shared/gateway";
import { fetchCredits } from "../../providers/gateway/credits";
import { modelsForSlice } from "../../services/gateway-models";
import type { ConnectionResolver } from "../../services/connection-resolver";
import type { ModelCatalog } from "../../services/model-catalog";
import type { SettingsService } from "../../services/settings-service";
import { parseWith } from "../middleware/validation";
import { upstreamCall } from "./upstream-call";

export type GatewayRoutesDeps = { settings: SettingsService; connections: ConnectionResolver; catalog: ModelCatalog };

export function gatewayRoutes(deps: GatewayRoutesDeps): Router {
  const router = routeRouter();

  router.get("/api/providers/gateway/models", async (req, res) => {
    const { slice } = parseWith(z.object({ slice: modelSliceSchema.default("text") }), req.query, "the query");
    const settings = await deps.settings.resolvedUnredacted();
    const connection = await deps.connections.forProvider(settings, "gateway", false);
    res.json(await upstreamCall(() => modelsForSlice(deps.catalog, slice, connection, settings)));
  });

  router.get("/api/providers/gateway/credits", async (_req, res) => {
    const settings = await deps.settings.resolvedUnredacted();
    const connection = await deps.connections.forProvider(settings, "gateway");
    res.json(await upstreamCall(() => fetchCredits(connection)));
  });

  return router;
}
