// The root page: the built Svelte UI when present, else a short page that says what Parley is. Files
// and pages outside /api, so not in the route table (src/shared/api-routes.ts): no client calls them.
import fs from "node:fs";
import path from "node:path";
import express, { type Router } from "express";
import { routeRouter } from "../../platform/http/router";
import { WEB_UI_CSP } from "../../platform/http/web-ui-csp";

const FALLBACK_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Parley</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>Parley</h1>
<p>Parley is an AI chat workspace for code: a local server that streams chats with models from many
vendors through one gateway, keeps custom prompts and layered settings, and serves this page to your
browser and to the VS Code side panel.</p>
<p>The web UI has not been built in this copy. Run <code>npm run build</code> and reload.</p>
</body></html>`;

export function webUiRoutes(webviewDir: string | undefined): Router {
  const router = routeRouter();
  router.use((_req, res, next) => {
    res.setHeader("Content-Security-Policy", WEB_UI_CSP);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "no-referrer");
    next();
  });
  const index = webviewDir ? path.join(webviewDir, "index.html") : undefined;
  if (webviewDir && index && fs.existsSync(index)) {
    // Browsers ask for /favicon.ico on their own: answer with the app's icon instead of a 404.
    router.get("/favicon.ico", (_req, res) =>
      res.type("image/svg+xml").sendFile(path.resolve(webviewDir, "favicon.svg")),
    );
    router.use(express.static(webviewDir, { index: "index.html", fallthrough: true }));
  } else {
    router.get("/", (_req, res) => {
      res.type("html").send(FALLBACK_PAGE);
    });
  }
  return router;
}
