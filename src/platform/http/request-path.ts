// What the router could make of a request path, for access decisions that must not depend on spelling.
// Express routes are case-sensitive and strict here, but the access check is stricter still: any path
// that spells `/api` in some way (letter case, doubled slashes, percent-encoding, a trailing slash) is
// treated as an API path, so no spelling can reach a handler, or a fallback, without credentials.

const MAX_DECODE_ROUNDS = 4;

/** Percent-decodes until stable (bounded), keeping the input when it is not valid encoding. */
function decodeFully(path: string): string {
  let current = path;
  for (let round = 0; round < MAX_DECODE_ROUNDS; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** The path folded the way a lenient router would see it: decoded, `\` as `/`, one slash, lower case, no trailing slash. */
export function canonicalPath(path: string): string {
  const folded = decodeFully(path)
    .replace(/\\/g, "/")
    .replace(/\/{2,}/g, "/")
    .toLowerCase();
  return folded.length > 1 ? folded.replace(/\/+$/, "") : folded;
}

/**
 * The path a file server would resolve any spelling to (express.static normalises `.` and `..`, the
 * router does not): decoded, `\` as `/`, dot segments resolved, never above the root, one slash, no
 * trailing slash. Letter case is kept (hashed bundle names need it); compare lower-cased.
 */
export function resolvedPath(path: string): string {
  const segments: string[] = [];
  for (const segment of decodeFully(path).replace(/\\/g, "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

const namesApi = (path: string) => path === "/api" || path.startsWith("/api/");

/** True when any spelling of the path names `/api` or something under it, before or after resolving dots. */
export function isApiPath(path: string): boolean {
  return namesApi(canonicalPath(path)) || namesApi(resolvedPath(path).toLowerCase());
}

const HOST_HEADER =
  /^(?:\[([0-9a-f:.]+)\]|([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*))(?::(\d{1,5}))?$/i;

/**
 * The host name of a Host header value, lower-cased, without port or IPv6 brackets; undefined when the
 * value is anything but exactly a host and an optional port (`127.0.0.1:1@evil.com`, `[::1]evil.com`).
 */
export function parseHostHeader(value: string): string | undefined {
  const match = HOST_HEADER.exec(value.trim());
  if (!match) return undefined;
  const port = match[3];
  if (port !== undefined && Number(port) > 65535) return undefined;
  return (match[1] ?? match[2])!.toLowerCase();
}

/** Loopback names only: `localhost`, IPv4 127/8 and `::1`. Subdomains of localhost need the user's allow-list. */
export function isLoopbackHost(name: string): boolean {
  return name === "localhost" || name === "::1" || /^127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(name);
}
