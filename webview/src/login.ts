// The sign-in page's script: sends the password, or signs in with a passkey (WebAuthn through
// @simplewebauthn/browser), then goes to the app. Bundled on its own (media/webview/login.js).
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";

const message = document.getElementById("message")!;

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function fail(response: Response): Promise<void> {
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
  message.textContent = body.error?.message ?? `sign-in failed (${response.status})`;
}

document.getElementById("password-form")?.addEventListener("submit", async (event) => {
  event.preventDefault();
  const field = document.getElementById("password") as HTMLInputElement;
  const response = await post("./api/access/login", { password: field.value });
  field.value = "";
  if (response.ok) window.location.replace("./");
  else await fail(response);
});

document.getElementById("passkey")?.addEventListener("click", async () => {
  message.textContent = "";
  const options = await post("./api/access/login/passkey/options", {});
  if (!options.ok) return fail(options);
  try {
    const response = await startAuthentication({
      optionsJSON: (await options.json()) as PublicKeyCredentialRequestOptionsJSON,
    });
    const verified = await post("./api/access/login/passkey/verify", { response });
    if (verified.ok) window.location.replace("./");
    else await fail(verified);
  } catch (error) {
    message.textContent = `The passkey sign-in did not finish: ${(error as Error).message}`;
  }
});
