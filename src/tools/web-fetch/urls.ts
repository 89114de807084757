// Which URLs `web_fetch` requests, and where a redirect may lead (contract 7.5). Only http and https,
// no credentials in the URL; a redirect is followed by hand, at most five times, each target checked
// again as a URL of its own (its address is checked when it is resolved), and one that leads back to
// a URL already visited is a loop. Pure: the WHATWG URL parser does the reading, so `http://2130706433/`,
// `http://0x7f.1/` and `http://0177.0.0.1/` are all the host 127.0.0.1 by the time an address is judged.
import { ToolError } from "../tool-error";

export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The URL to request, or a refusal in words. */
export function checkUrl(text: string | URL): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`"${String(text).slice(0, 200)}" is not a valid URL (web_fetch takes an http or https URL)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ToolError(`web_fetch reads http and https URLs only, not ${url.protocol} (${url.href.slice(0, 200)})`);
  if (url.username || url.password)
    throw new ToolError("web_fetch does not send credentials: remove the user name and password from the URL");
  if (!url.hostname) throw new ToolError(`the URL ${url.href.slice(0, 200)} names no host`);
  return url;
}

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/** A URL as visits are compared: the fragment never reaches the server. */
const visitKey = (url: URL) => url.href.replace(/#.*$/, "");

/**
 * Where a redirect leads: `visited` are the URLs requested so far, the first one included. Refused: a
 * redirect without a Location, a target that is not an http(s) URL, the sixth redirect, and a loop.
 */
export function redirectTarget(from: URL, location: string | null, visited: readonly URL[]): URL {
  if (!location) throw new ToolError(`${from.href} answered with a redirect but no Location`);
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new ToolError(`${from.href} redirects to "${location.slice(0, 200)}", which is not a valid URL`);
  }
  target = checkUrl(target);
  if (visited.some((url) => visitKey(url) === visitKey(target)))
    throw new ToolError(`redirect loop: ${from.href} leads back to ${target.href}`);
  // `visited` holds the first request and each redirect followed so far.
  if (visited.length > MAX_REDIRECTS)
    throw new ToolError(`too many redirects: more than ${MAX_REDIRECTS}, the last to ${target.href}`);
  return target;
}
