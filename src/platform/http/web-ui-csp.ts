// The Content-Security-Policy of every page Parley serves to a browser: the app and its sign-in page.
/**
 * The UI holds a session and shows model output: only its own scripts, styles and API, and no
 * remote images (a Markdown image could carry data out in its URL). Workers only from Blob URLs,
 * which only the UI's own scripts can make (the highlighter of large code blocks).
 */
export const WEB_UI_CSP =
  "default-src 'none'; script-src 'self'; worker-src blob:; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
