// Which addresses `web_fetch` may connect to (contract 7.5). Public unicast addresses, yes; loopback,
// private networks, link-local (169.254.169.254, the cloud metadata service, among them), unique-local,
// carrier-grade NAT, documentation and other special-purpose ranges only when the user's `webFetch`
// setting allows them; unspecified, broadcast and multicast addresses never (they name no server).
// The ranges are ipaddr.js's (a maintained table of the IANA special-purpose registries), not ours.
// IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:127.0.0.1`, NAT64 `64:ff9b::a00:1`,
// IPv4-compatible `::7f00:1`) are judged by that IPv4 address. Pure.
import ipaddr from "ipaddr.js";
import type { WebFetchSettings } from "../../shared/web-fetch";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** How an address is treated: `public` passes, `special` needs the setting, `never` is always refused. */
export type AddressClass = { kind: "public" } | { kind: "special" | "never"; range: string };

const NEVER: ReadonlySet<string> = new Set(["unspecified", "broadcast", "multicast"]);

/** The words a refusal uses for ipaddr.js's range names. */
const RANGE_WORDS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private network address",
  linkLocal: "a link-local address (the cloud metadata service lives there)",
  uniqueLocal: "a unique-local (private) IPv6 address",
  carrierGradeNat: "a carrier-grade NAT address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  multicast: "a multicast address",
  reserved: "a reserved or documentation address",
  ipv4Compatible: "an IPv4-compatible IPv6 address",
};

export function rangeWords(range: string): string {
  return RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
}

/** The IPv4 address an IPv6 address stands for, where it carries one to be judged by. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  const p = address.parts;
  const low32 = () => new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff]);
  if (range === "ipv4Mapped" || range === "rfc6145") return low32();
  // NAT64's well-known prefix 64:ff9b::/96 (RFC 6052); the local-use 64:ff9b:1::/48 stays special.
  if (range === "rfc6052" && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return low32();
  return undefined;
}

/** `::a.b.c.d` (deprecated IPv4-compatible, ::/96 less :: and ::1), which ipaddr.js counts as unicast. */
function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0) && address.range() === "unicast";
}

/** The address itself, or the IPv4 address it carries. */
export function canonicalAddress(text: string): Address {
  const address = ipaddr.parse(text);
  if (address.kind() === "ipv6") return embeddedIPv4(address as ipaddr.IPv6) ?? address;
  return address;
}

/** The class of an IP address as text (IPv4 or IPv6, without brackets). Throws on a non-address. */
export function classifyAddress(text: string): AddressClass {
  const address = canonicalAddress(text);
  if (address.kind() === "ipv6" && isIPv4Compatible(address as ipaddr.IPv6))
    return { kind: "special", range: "ipv4Compatible" };
  const range = address.range();
  if (range === "unicast") return { kind: "public" };
  return { kind: NEVER.has(range) ? "never" : "special", range };
}

/** What the user allows beyond public addresses (the `webFetch` app setting), ready to match. */
export type PrivateAccess = {
  allowPrivate: boolean;
  /** Host names, lower case, without a trailing dot. */
  hosts: ReadonlySet<string>;
  ranges: readonly [Address, number][];
};

export function privateAccess(settings: WebFetchSettings | undefined): PrivateAccess {
  const hosts = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const entry of settings?.allowHosts ?? []) {
    if (ipaddr.isValidCIDR(entry)) {
      const [network, bits] = ipaddr.parseCIDR(entry);
      // An IPv4-mapped range is the IPv4 range it maps.
      ranges.push(
        network.kind() === "ipv6" && (network as ipaddr.IPv6).isIPv4MappedAddress()
          ? [(network as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)]
          : [network, bits],
      );
    } else if (ipaddr.isValid(entry)) {
      const address = canonicalAddress(entry);
      ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
    } else hosts.add(normalizeHost(entry));
  }
  return { allowPrivate: settings?.allowPrivate === true, hosts, ranges };
}

/** A URL's host as compared: lower case, IPv6 brackets and a trailing dot removed. */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.$/, "");
}

/**
 * Why `web_fetch` may not connect to `address` for a URL of host `host`, or undefined when it may.
 * A host name in the allow list allows whatever it resolves to (but never an address of `never`).
 */
export function addressRefusal(host: string, address: string, access: PrivateAccess): string | undefined {
  const verdict = classifyAddress(address);
  if (verdict.kind === "public") return undefined;
  const canonical = canonicalAddress(address);
  // `::ffff:7f00:1 (127.0.0.1)`: the form that was judged, when it is not the one written.
  const judged = canonical.toString() === address ? address : `${address} (${canonical.toString()})`;
  const shown = normalizeHost(host) === address ? judged : `${host} (${judged})`;
  if (verdict.kind === "never") return `${shown} is ${rangeWords(verdict.range)}, which names no server`;
  if (access.allowPrivate || access.hosts.has(normalizeHost(host))) return undefined;
  const inRange = access.ranges.some(
    ([network, bits]) => network.kind() === canonical.kind() && canonical.match(network, bits),
  );
  if (inRange) return undefined;
  return `${shown} is ${rangeWords(verdict.range)}; web_fetch reaches such addresses only when the app setting webFetch.allowPrivate or webFetch.allowHosts allows it`;
}
