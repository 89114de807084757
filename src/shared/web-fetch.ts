// The `webFetch` app setting (contract 7.5): which private and special-purpose addresses `web_fetch`
// may reach. By default none: loopback, private networks, link-local (the cloud metadata address
// among them) and the rest are refused. An app-only key: it loosens a defence, so a repository's
// `.app.json` can never set it.
import { z } from "zod";

const isAddressOrRange = (value: string) =>
  [z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()].some((schema) => schema.safeParse(value).success);

/**
 * One `allowHosts` entry: a host name as URLs spell it (`localhost`, `wiki.intranet`), matched exactly
 * (no port, no wildcard), or an IP address or CIDR range (`127.0.0.1`, `10.0.0.0/8`, `fd00::/8`) that
 * the address a URL resolves to is matched against.
 */
export const webFetchHostSchema = z
  .string()
  .min(1)
  .max(253)
  .refine((value) => !value.includes("*"), {
    message: "a wildcard is not accepted; list each host, or set webFetch.allowPrivate to true to allow them all",
  })
  .refine((value) => value.includes("*") || isAddressOrRange(value) || z.hostname().safeParse(value).success, {
    message: "a host name (no scheme, port or path), an IP address or a CIDR range such as 10.0.0.0/8",
  });

export const webFetchSettingsSchema = z
  .object({
    /** Every private and special-purpose unicast address (loopback, 10/8, 169.254/16, fc00::/7…). */
    allowPrivate: z.boolean(),
    /** Only these hosts, addresses or ranges, when `allowPrivate` is not on. */
    allowHosts: z.array(webFetchHostSchema).max(100),
  })
  .partial();
export type WebFetchSettings = z.infer<typeof webFetchSettingsSchema>;
