// The page the gateway's redirect lands on. It returns to the app by itself: a popup tells its
// opener and closes; a tab or an installed PWA window goes back to the app with a flag in the URL.
import { randomBytes } from "node:crypto";
import type { OAuthResult } from "./gateway-oauth";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** From the callback (…/api/providers/gateway/oauth/callback) back to the app's root, whatever prefix it sits under. */
const CALLBACK_TO_ROOT = "../../../../";

export function oauthResultPage(result: OAuthResult, returnTo: string): { html: string; csp: string } {
  const nonce = randomBytes(16).toString("base64");
  const target = new URL(returnTo, "http://placeholder");
  target.searchParams.set("signin", result.ok ? "ok" : "error");
  const back = `${CALLBACK_TO_ROOT}${target.pathname.slice(1)}${target.search}${target.hash}`;
  const message = { type: "parley.oauth", ...result };
  const title = result.ok ? "Signed in to the gateway" : "Sign-in did not work";
  const body = result.ok
    ? `<p>Parley now uses the account <code>${escapeHtml(result.label)}…</code>. You can close this window.</p>`
    : `<p>${escapeHtml(result.message)}</p><p>Nothing was saved. Try Sign in again from Settings, Providers.</p>`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title} · Parley</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; line-height: 1.5">
<h1 id="result" data-ok="${result.ok}">${title}</h1>${body}
<p><a id="back" href="${escapeHtml(back)}">Back to Parley</a></p>
<script nonce="${nonce}">
  (function () {
    var message = ${JSON.stringify(message).replace(/</g, "\\u003c")};
    var back = ${JSON.stringify(back).replace(/</g, "\\u003c")};
    try {
      if (window.opener && !window.opener.closed) {
        window.opener.postMessage(message, window.location.origin);
        window.close();
        return;
      }
    } catch (e) {}
    setTimeout(function () { window.location.replace(back); }, ${result.ok ? 800 : 4000});
  })();
</script></body></html>`;
  return { html, csp: `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'` };
}
