// The sign-in page a browser without a session sees once a password or a passkey is set: plain HTML
// served by the server (it works without the app bundle); its small script (media/webview/login.js,
// built from webview/src/login.ts) posts the password or runs the passkey ceremony.

/** `localhostUrl`: the page was opened on an IP address, where browsers refuse passkeys; offer this instead. */
export function loginPage(options: { passwordSet: boolean; passkeys: boolean; localhostUrl?: string }): string {
  const password = options.passwordSet
    ? `<form id="password-form">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required minlength="1">
  <button type="submit">Sign in</button>
</form>`
    : "";
  const passkey = !options.passkeys
    ? ""
    : options.localhostUrl
      ? `<p>Passkeys need a host name: <a href="${options.localhostUrl}">open this page on localhost</a> to sign in with one.</p>`
      : `<button type="button" id="passkey">Sign in with a passkey</button>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to Parley</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 24rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
  form, .passkey { display: grid; gap: 0.5rem; margin: 1rem 0; }
  input, button { font: inherit; padding: 0.4rem 0.6rem; }
  [role="alert"] { color: #b3261e; min-height: 1.5em; }
  @media (prefers-color-scheme: dark) { [role="alert"] { color: #f2b8b5; } }
</style></head>
<body>
<main>
<h1>Sign in to Parley</h1>
<p>This Parley asks you to sign in. VS Code and the link Parley prints at start sign you in by themselves.</p>
${password}
<div class="passkey">${passkey}</div>
<p id="message" role="alert"></p>
</main>
<script type="module" src="./login.js"></script>
</body></html>`;
}
