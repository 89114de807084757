// Every route file builds its router here, so routing is case-sensitive and strict everywhere: `/API/x`
// and `/api/x/` never reach the `/api/x` handler (the access check refuses them before routing anyway).
import { Router } from "express";

export function routeRouter(): Router {
  return Router({ caseSensitive: true, strict: true });
}
