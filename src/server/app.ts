// createApp builds the express application from a runtime. It never listens, so tests can drive it
// in-process and the CLI and the extension bind it the same way.
import express, { type Express } from "express";
import type { Runtime } from "../app";
import {
  contentTypeGuard,
  hostGuard,
  isAuthenticated,
  originGuard,
  requireAuth,
  tokenLogin,
  type AccessDeps,
} from "./middleware/access";
import { apiNotFound, errorHandler } from "./middleware/errors";
import { bodyDepthGuard } from "./middleware/body-depth";
import { healthRoutes } from "./routes/health";
import { projectRoutes } from "../projects/routes";
import { settingsRoutes } from "../settings/routes";
import { eventRoutes } from "./routes/events";
import { webUiRoutes } from "./routes/web-ui";
import { chatRoutes } from "../chat/routes";
import { worktreeRoutes } from "../worktrees/routes";
import { compactionRoutes } from "../chat/compaction/routes";
import { gatewayRoutes } from "../gateway/routes";
import { usageRoutes } from "../chat/usage-routes";
import { dictationRoutes } from "../dictation/routes";
import { gatewayOAuthRoutes } from "../gateway/oauth-routes";
import { promptRoutes } from "../prompts/routes";
import { agentRoutes } from "../projects/agents-routes";
import { instructionRoutes } from "../prompts/instructions-routes";
import { mentionRoutes } from "../mentions";
import { toolRoutes } from "../tools/routes";
import { mcpRoutes } from "../tools/mcp/routes";
import { trustRoutes } from "../projects/trust-routes";
import { directRoutes } from "../chat/direct-routes";
import { chatExportRoutes } from "../chat/export/routes";
import { searchRoutes } from "../search/routes";
import { planRoutes } from "../chat/plan/plan-routes";
import { accessRoutes, loginGate } from "../access/routes";
import { SseRegistry } from "../platform/http/sse";

export const JSON_BODY_LIMIT = "1mb";

export type AppOptions = {
  version: string;
  /** The built Svelte UI (media/webview); a fallback page is served without it. */
  webviewDir?: string;
  /** Origins the editor host vouches for (its webviews), allowed like `vscode-webview://`. */
  trustedOrigins?: ReadonlySet<string>;
};

export type ParleyApp = { app: Express; streams: SseRegistry };

export function createApp(runtime: Runtime, options: AppOptions): ParleyApp {
  const app = express();
  const streams = new SseRegistry();
  const access: AccessDeps = {
    token: runtime.token,
    sessions: runtime.sessions,
    access: runtime.access,
    allowedHosts: () => {
      const hosts = runtime.settings.appLayer().allowedHosts;
      return Array.isArray(hosts) ? (hosts as string[]) : [];
    },
    trustedOrigins: () => options.trustedOrigins ?? new Set(),
  };

  app.disable("x-powered-by");
  app.set("query parser", "simple");
  // One spelling per route; the access check below covers every other spelling before any route runs.
  app.set("case sensitive routing", true);
  app.set("strict routing", true);
  // No ETags on answers the routes build: the API's data is live, and a browser revalidating a GET
  // got a 304 that kept the stored answer's headers (a search's `X-Parley-Superseded` among them),
  // so an empty answer stayed "superseded" forever. The UI's own files keep theirs (express.static).
  app.set("etag", false);
  app.use(hostGuard(access));
  app.use(originGuard(access));
  app.use(tokenLogin(access));
  app.use(requireAuth(access));
  app.use(contentTypeGuard());
  app.use(express.json({ limit: JSON_BODY_LIMIT, strict: false }));
  app.use(bodyDepthGuard);
  app.use("/api", (_req, res, next) => {
    // Chats, settings and file lists are live and private: never kept in a browser's cache.
    res.setHeader("Cache-Control", "no-store");
    next();
  });

  app.use(healthRoutes(options.version));
  app.use(projectRoutes(runtime));
  app.use(settingsRoutes(runtime));
  app.use(eventRoutes(runtime.events, streams));
  app.use(chatRoutes(runtime, streams));
  app.use(compactionRoutes(runtime));
  app.use(gatewayRoutes(runtime));
  app.use(usageRoutes(runtime));
  app.use(dictationRoutes(runtime));
  app.use(gatewayOAuthRoutes(runtime));
  app.use(promptRoutes(runtime));
  app.use(agentRoutes(runtime));
  app.use(instructionRoutes(runtime));
  app.use(mentionRoutes(runtime));
  app.use(toolRoutes(runtime));
  app.use(mcpRoutes(runtime));
  app.use(trustRoutes(runtime));
  app.use(directRoutes(runtime));
  app.use(searchRoutes(runtime));
  app.use(chatExportRoutes(runtime));
  app.use(planRoutes(runtime));
  app.use(
    worktreeRoutes({
      ...runtime,
      repo: runtime.worktreesRepo,
      isActive: (chatId) => runtime.activeTurns.isActive(chatId),
    }),
  );
  streams.authorized = (req) => isAuthenticated(req, access);
  app.use(accessRoutes(access, () => streams.recheck()));
  app.use(apiNotFound);
  app.use(loginGate(access));
  app.use(webUiRoutes(options.webviewDir));

  app.use(errorHandler((line) => runtime.log.error(line)));
  return { app, streams };
}
