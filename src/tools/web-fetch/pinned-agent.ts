// The connection of one `web_fetch` request, pinned to the address that was checked (contract 7.5):
// undici asks this agent's `lookup` where the host is, and it answers with that address whatever the
// name. A DNS answer that changes between the check and the connect (DNS rebinding: public for the
// check, 127.0.0.1 for the connect) never reaches the socket, because no second lookup happens. TLS
// still verifies the certificate against the URL's host name.
import net, { type LookupFunction } from "node:net";
import type { Agent } from "undici";
import { lazyModule } from "../../platform/lazy-module";

/** undici loads on first use, off the server's start-up path (see lazy-module.ts). */
const loadUndici = lazyModule(() => import("undici"));

export const CONNECT_TIMEOUT_MS = 10_000;

/** A `lookup` that always answers `address`, in the form the caller asks for (one, or all). */
export function pinnedLookup(address: string): LookupFunction {
  const family = net.isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  return (_hostname, options, callback) => {
    // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily).
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/** An agent for one request to `address`; closed by the caller when the response is read. */
export async function pinnedAgent(address: string): Promise<Agent> {
  const { Agent } = await loadUndici();
  return new Agent({
    connect: { lookup: pinnedLookup(address), timeout: CONNECT_TIMEOUT_MS },
    // One request per agent: nothing to keep alive.
    pipelining: 0,
  });
}

export async function undiciFetch(): Promise<typeof import("undici").fetch> {
  return (await loadUndici()).fetch;
}
