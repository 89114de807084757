// Pure helpers of the Access page: where passkeys can work (browsers refuse an IP address as the
// relying party, so the same page on localhost), the password rules the server enforces, and a
// short name for a session's user agent.

/** The server's rule (contract 6.7); checked here too so the error shows at the field before a round trip. */
export const MIN_PASSWORD_LENGTH = 12;

/** An IPv4 or IPv6 address as `URL.hostname` gives it (`127.0.0.1`, `[::1]`). */
export function isIpHost(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith("[") || hostname.includes(":");
}

/** Loopback addresses, which `localhost` reaches as well. */
function isLoopbackIp(hostname: string): boolean {
  return /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === "[::1]";
}

/** The same URL with `localhost` in place of a loopback IP address (other hosts unchanged). */
export function onLocalhost(href: string): string {
  const url = new URL(href);
  if (isLoopbackIp(url.hostname)) url.hostname = "localhost";
  return url.href;
}

/**
 * A page of the app in a browser, for VS Code's "Open in Browser" (webviews have no WebAuthn): the
 * token link signs the browser in, on localhost so that passkeys work there; the hash survives the
 * server's redirect to `./`.
 */
export function browserLink(serverUrl: string, token: string | undefined, hash: string): string {
  const base = onLocalhost(`${serverUrl.replace(/\/+$/, "")}/`);
  return `${base}${token ? `?token=${encodeURIComponent(token)}` : ""}${hash}`;
}

export type PasswordForm = { current: string; next: string; confirm: string };
export type PasswordErrors = Partial<Record<keyof PasswordForm, string>>;

/** What is wrong with the form before it is sent, by field; `needsCurrent` once a password is set. */
export function passwordErrors(form: PasswordForm, needsCurrent: boolean): PasswordErrors {
  const errors: PasswordErrors = {};
  if (needsCurrent && !form.current) errors.current = "Enter the current password.";
  if (form.next.length < MIN_PASSWORD_LENGTH)
    errors.next = `Use at least ${MIN_PASSWORD_LENGTH} characters (${form.next.length} so far).`;
  else if (form.confirm !== form.next) errors.confirm = "The two passwords differ.";
  return errors;
}

/** "Chrome 140 on Linux" from a user agent string; the string itself when nothing is recognised. */
export function describeUserAgent(userAgent: string): string {
  if (!userAgent.trim()) return "Unknown browser";
  const browsers: [RegExp, string][] = [
    [/Edg\/(\d+)/, "Edge"],
    [/OPR\/(\d+)/, "Opera"],
    [/Firefox\/(\d+)/, "Firefox"],
    [/HeadlessChrome\/(\d+)/, "Headless Chrome"],
    [/Chrom(?:e|ium)\/(\d+)/, "Chrome"],
    [/Version\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, "Safari"],
  ];
  const systems: [RegExp, string][] = [
    [/Android/, "Android"],
    [/iPhone|iPad|iPod/, "iOS"],
    [/Mac OS X|Macintosh/, "macOS"],
    [/Windows/, "Windows"],
    [/CrOS/, "ChromeOS"],
    [/Linux/, "Linux"],
  ];
  const browser = browsers.map(([pattern, name]) => [userAgent.match(pattern), name] as const).find(([match]) => match);
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (!browser) return userAgent.length > 60 ? `${userAgent.slice(0, 60)}…` : userAgent;
  const [match, name] = browser;
  return `${name} ${match![1]}${system ? ` on ${system}` : ""}`;
}

export function formatWhen(iso: string | null): string {
  if (!iso) return "never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
