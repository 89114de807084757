// The gateway provider: its model catalog slices and the account balance.
import { Router } from "express";
import { z } from "zod";
import { modelSliceSchema } from "../../shared/gateway";
import { fetchCredits } from "../../providers/gateway/credits";
import type { ConnectionResolver } from "../../services/connection-resolver";
import type { ModelCatalog } from "../../services/model-catalog";
import type { SettingsService } from "../../services/settings-service";
import { parseWith } from "../middleware/validation";
import { upstreamCall } from "./upstream-call";

export type GatewayRoutesDeps = { settings: SettingsService; connections: ConnectionResolver; catalog: ModelCatalog };

export function gatewayRoutes(deps: GatewayRoutesDeps): Router {
  const router = Router();

  router.get("/api/providers/gateway/models", async (req, res) => {
    const { slice } = parseWith(z.object({ slice: modelSliceSchema.default("text") }), req.query, "the query");
    const settings = await deps.settings.resolvedUnredacted();
    const connection = await deps.connections.forProvider(settings, "gateway", false);
    res.json(await upstreamCall(() => deps.catalog.list(slice, connection)));
  });

  router.get("/api/providers/gateway/credits", async (_req, res) => {
    const settings = await deps.settings.resolvedUnredacted();
    const connection = await deps.connections.forProvider(settings, "gateway");
    res.json(await upstreamCall(() => fetchCredits(connection)));
  });

  return router;
}
