// The macOS sandbox (`sandbox-exec` with a Seatbelt profile) for a sandboxed command (contract 7.5):
// the same rules as bubblewrap's on Linux, expressed as a profile. Paths never enter the profile's
// text: it refers to them as parameters (`(param "HIDE_0")`) passed with `-D NAME=value`, so no path can
// close a string or add a rule. Without namespaces there is no private `/tmp`: the command gets a
// private temporary folder as `TMPDIR` instead, and shared `/tmp` stays read-only. Pure.
import { isInside } from "./path-facts";

export type SeatbeltPlan = {
  /**
   * The project folder's real path (macOS: under `/private/…` where `/tmp` or `/var` is involved).
   * None: the command writes only its temporary folder (and `cacheDir`).
   */
  projectRoot?: string;
  /** A worktree chat's share of its repository's git folder: writable (see BwrapPlan.gitWritable). */
  gitWritable?: readonly string[];
  /** A folder that outlives the command for its caches (an MCP server's), readable and writable. */
  cacheDir?: string;
  /** Real paths to hide, each with whether it is a folder. */
  hidden: readonly { real: string; kind: "dir" | "file" }[];
  /** Real paths inside the project that stay read-only (`.git/hooks`, `.git/config`). */
  readOnly: readonly { real: string; kind: "dir" | "file" }[];
  /** The command's private temporary folder (its `TMPDIR`), writable. */
  tmpDir: string;
  /** `on`: any IP address; `off`: none; `proxy`: only Parley's proxy on this loopback port. */
  network: "off" | "on" | { proxyPort: number };
  command: string;
  args: readonly string[];
};

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** What every command needs to start and run: processes, system lookups, devices, preferences. */
const BASE = `(version 1)
(deny default)
(allow process-exec process-fork)
(allow process-info* (target same-sandbox))
(allow signal (target same-sandbox))
(allow sysctl-read)
(allow user-preference-read)
(allow iokit-get-properties)
(allow ipc-posix-shm ipc-posix-sem)
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.opendirectoryd.membership")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.logd")
  (global-name "com.apple.diagnosticd")
  (global-name "com.apple.bsd.dirhelper")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.lsd.mapdb")
  (global-name "com.apple.coreservices.launchservicesd")
  (global-name "com.apple.CoreServices.coreservicesd")
  (global-name "com.apple.fonts")
  (global-name "com.apple.FontObjectsServer")
  (global-name "com.apple.PowerManagement.control")
  (global-name "com.apple.distributed_notifications@Uv3"))
(allow file-ioctl (literal "/dev/null") (literal "/dev/zero") (literal "/dev/random") (literal "/dev/urandom") (literal "/dev/tty") (literal "/dev/dtracehelper"))
(allow file-write-data file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper"))`;

/** Any IP traffic, and DNS through mDNSResponder, but no Unix sockets (the Docker socket, agents). */
const NETWORK_ON = `(allow network-outbound (remote ip "*:*"))
(allow network-inbound (local ip "*:*"))
(allow network-bind (local ip "*:*"))
(allow system-socket)
(allow mach-lookup (global-name "com.apple.dnssd.service"))
(allow network-outbound (literal "/private/var/run/mDNSResponder"))`;

type Filter = { name: string; kind: "dir" | "file" };
const filterOf = ({ name, kind }: Filter) =>
  kind === "dir" ? `(subpath (param "${name}"))` : `(literal (param "${name}"))`;
const rule = (verb: string, filters: Filter[]) =>
  filters.length === 0 ? [] : [`(${verb} ${filters.map(filterOf).join(" ")})`];

/** The profile text and its parameters. */
export function seatbeltProfile(plan: SeatbeltPlan): { profile: string; params: Record<string, string> } {
  const root = plan.projectRoot;
  const params: Record<string, string> = {
    ...(root === undefined ? {} : { PROJECT: root }),
    TMP: plan.tmpDir,
    ...(plan.cacheDir === undefined ? {} : { CACHE: plan.cacheDir }),
  };
  const named = (prefix: string, list: SeatbeltPlan["hidden"]) =>
    list.map((entry, i) => {
      params[`${prefix}_${i}`] = entry.real;
      return { name: `${prefix}_${i}`, kind: entry.kind, real: entry.real };
    });
  const hidden = named("HIDE", plan.hidden).filter((h) => h.real !== "/" && h.real !== root);
  const readOnly = named("READONLY", plan.readOnly);
  // As with bubblewrap: a hidden folder that holds the project is denied before the project is allowed
  // (later rules win), one inside the project after. The cache folder is Parley's (in its hidden home).
  const insideProject = (h: { real: string }) => root !== undefined && isInside(h.real, root);
  const outside = hidden.filter((h) => !insideProject(h));
  const inside = hidden.filter(insideProject);
  const gitShare = (plan.gitWritable ?? []).map((real, i) => {
    params[`GITW_${i}`] = real;
    return { name: `GITW_${i}`, kind: "dir" } as const;
  });
  const project: Filter[] = [...(root === undefined ? [] : [{ name: "PROJECT", kind: "dir" } as const]), ...gitShare];
  const cache: Filter[] = plan.cacheDir === undefined ? [] : [{ name: "CACHE", kind: "dir" }];
  const network =
    plan.network === "on"
      ? [NETWORK_ON]
      : plan.network === "off"
        ? []
        : [`(allow network-outbound (remote tcp "localhost:${Math.trunc(plan.network.proxyPort)}"))`];
  const lines = [
    BASE,
    "(allow file-read*)",
    ...rule("deny file-read*", outside),
    ...rule("allow file-read*", [...project, ...cache]),
    ...rule("allow file-write*", [...project, { name: "TMP", kind: "dir" }, ...cache]),
    ...rule("deny file-write*", readOnly),
    ...rule("deny file-read* file-write*", inside),
    ...network,
  ];
  return { profile: `${lines.join("\n")}\n`, params };
}

/** `sandbox-exec -p <profile> -D NAME=value … -- command args…`. */
export function seatbeltArgs(plan: SeatbeltPlan): { command: string; args: string[] } {
  const { profile, params } = seatbeltProfile(plan);
  return {
    command: SANDBOX_EXEC,
    args: [
      "-p",
      profile,
      ...Object.entries(params).flatMap(([name, value]) => ["-D", `${name}=${value}`]),
      "--",
      plan.command,
      ...plan.args,
    ],
  };
}
