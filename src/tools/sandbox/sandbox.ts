// The sandbox as the rest of Parley uses it (contract 7.5): given a command, its folder, its
// environment and the sandbox settings in force, the command line to spawn instead (bubblewrap on
// Linux, `sandbox-exec` on macOS), or the command unchanged with the reason it is not sandboxed.
// It knows nothing of `shell` or MCP. To run something in it:
//
//   const run = await runtime.sandbox.command({ command, args, cwd, env, projectRoot, settings: snapshot.sandbox });
//   spawn(run.command, run.args, { cwd, env: run.env, stdio: … });   // plus run.bridge, below
//   …once the process has exited: run.release();
//
// `env` must already be free of Parley's secrets. A host list on Linux needs an IPC channel on the
// spawned process (`run.bridge`); a caller that cannot add one (an SDK's stdio transport) passes
// `canBridge: false`, and the host list then counts as no network. A command that belongs to no
// project (an app MCP server) may have no `projectRoot`: it writes nothing but its private `/tmp` and
// its `cacheDir`. The probe runs once per Sandbox.
import type { ChildProcess } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { hideEntriesInside, type SandboxSettings, type SandboxStatus } from "../../shared/sandbox";
import { probeSandbox } from "./availability";
import { bwrapArgs, CACHE_MOUNT } from "./bwrap-args";
import { hiddenPaths } from "./hidden-paths";
import { HostListProxy } from "./host-list-proxy";
import { isInside, readOnlyCandidates, readPathFacts, type PathFacts } from "./path-facts";
import { BRIDGE_IPC_FD, bridgeCommand, proxyEnvironment } from "./proxy-bridge";
import { sandboxStatus, type SandboxAvailability } from "./sandbox-rules";
import { DENY_UNIX_SOCKETS_FILTER } from "./seccomp-filter";
import { seatbeltArgs } from "./seatbelt-profile";

export type SandboxRequest = {
  command: string;
  args: readonly string[];
  /** Where the command starts: a real path, inside the project if there is one, and not hidden. */
  cwd: string;
  /** The command's environment, already free of Parley's secrets. */
  env: Record<string, string>;
  /** The project folder's real path: the one folder the command may write. None: only its temporary folder. */
  projectRoot?: string;
  /**
   * The project is a worktree chat's worktree: the folders of its repository's git folder that git
   * writes to commit on the chat's branch (see BwrapPlan.gitWritable). Ignored without `projectRoot`.
   */
  gitWritable?: readonly string[];
  /**
   * A folder of the host for caches that outlive the command (npm's, `XDG_CACHE_HOME`), writable
   * inside: an MCP server's downloads survive its restarts. Parley's own, never shared between servers.
   */
  cacheDir?: string;
  /** Folders to keep visible, read-only, where the private `/tmp` would cover them (real paths). */
  visible?: readonly string[];
  /** The sandbox settings in force for the project (`ProjectSnapshot.sandbox`). */
  settings: SandboxSettings;
  /**
   * False when the caller cannot spawn with an IPC channel (see `bridge`): a host list on Linux then
   * counts as no network, the strict side, rather than as a network the proxy does not guard.
   */
  canBridge?: boolean;
};

export type SandboxedCommand = {
  command: string;
  args: string[];
  env: Record<string, string>;
  status: SandboxStatus;
  /**
   * Set when the command reaches a host list through Parley's proxy on Linux: spawn it with
   * `stdio[ipcFd] = "ipc"` and hand the child to `attach`, which answers the connections it opens.
   */
  bridge?: { ipcFd: number; attach(child: ChildProcess): void };
  /** Ends what the command needed (its proxy, its temporary folder); call once it has exited. */
  release(): void;
};

export type SandboxOptions = {
  /** Parley's home: hidden from every command. */
  appHome: string;
  userHome?: string;
  platform?: NodeJS.Platform;
  /** Where other Parley homes may be (`APP_HOME`); read from the environment when absent. */
  otherAppHomes?: readonly string[];
  /** Replaces the probe (tests, and a host that knows better). */
  probe?: () => Promise<SandboxAvailability>;
};

/**
 * Opens the seccomp filter as file descriptor 3 of bwrap without a shell string built from input: the
 * filter's path and bwrap's argv arrive as positional parameters (`$1`, then `"$@"`).
 */
const FD3_TRAMPOLINE = 'f=$1; shift; exec "$@" 3<"$f"';

/** Inside the Linux sandbox: the private `/tmp` for temporary files and caches a read-only home cannot hold. */
const LINUX_SANDBOX_ENV = {
  TMPDIR: "/tmp",
  XDG_CACHE_HOME: "/tmp/.cache",
  npm_config_cache: "/tmp/.npm",
};

export class Sandbox {
  private probed: Promise<SandboxAvailability> | undefined;
  private filterFile: Promise<string> | undefined;
  /** The user's home folder, as the hidden paths are worked out from it. */
  readonly userHome: string;
  private readonly platform: NodeJS.Platform;
  private readonly otherAppHomes: readonly string[];

  constructor(private readonly options: SandboxOptions) {
    this.userHome = options.userHome ?? os.homedir();
    this.platform = options.platform ?? process.platform;
    this.otherAppHomes = options.otherAppHomes ?? [
      ...(process.env.APP_HOME ? [process.env.APP_HOME] : []),
      path.join(this.userHome, ".app"),
    ];
  }

  /** Whether this machine can sandbox commands; probed once. */
  availability(): Promise<SandboxAvailability> {
    this.probed ??= this.options.probe?.() ?? probeSandbox(this.platform, DENY_UNIX_SOCKETS_FILTER);
    return this.probed;
  }

  /** The command to spawn for `request`: sandboxed where the settings and the machine allow. */
  async command(request: SandboxRequest): Promise<SandboxedCommand> {
    const availability = await this.availability();
    const status = sandboxStatus(request.settings, availability);
    if (!status.sandboxed || !availability.available)
      return { command: request.command, args: [...request.args], env: request.env, status, release: () => {} };
    const root = request.projectRoot;
    const hidden = this.hiddenPaths(request.settings, root);
    const facts = await readPathFacts([
      ...hidden,
      ...(root === undefined ? [] : [...readOnlyCandidates(root), ...(request.gitWritable ?? [])]),
    ]);
    return availability.kind === "bwrap"
      ? this.bwrap(request, availability.executable, hidden, facts, status)
      : this.seatbelt(request, hidden, facts, status);
  }

  /**
   * The hidden path (built in, or listed in `settings.hide`) that holds `dir`, if one does: a folder
   * no command can be given to work in or write, since it is hidden from the command.
   */
  async hiddenHolding(dir: string, settings: SandboxSettings): Promise<string | undefined> {
    const hidden = this.hiddenPaths(settings, undefined);
    const [facts, real] = await Promise.all([readPathFacts(hidden), fs.realpath(dir).catch(() => path.resolve(dir))]);
    return hidden.find((p) => {
      const fact = facts.get(p);
      return fact !== undefined && isInside(real, fact.real);
    });
  }

  private hiddenPaths(settings: SandboxSettings, projectRoot: string | undefined): string[] {
    // A listed path inside the project is not hidden: the project is the command's working folder.
    const inside = new Set(projectRoot === undefined ? [] : hideEntriesInside(settings.hide, projectRoot));
    return hiddenPaths({
      userHome: this.userHome,
      appHome: this.options.appHome,
      otherAppHomes: this.otherAppHomes,
      platform: this.platform,
      extra: settings.hide.filter((p) => !inside.has(p)),
    });
  }

  private async bwrap(
    request: SandboxRequest,
    bwrap: string,
    hidden: string[],
    facts: PathFacts,
    status: SandboxStatus,
  ): Promise<SandboxedCommand> {
    const network = request.settings.network;
    const listed = Array.isArray(network) ? network : undefined;
    const hosts = request.canBridge === false ? undefined : listed;
    const inner = hosts ? bridgeCommand(process.execPath, request.command, request.args) : request;
    const args = bwrapArgs({
      ...(request.projectRoot === undefined ? {} : { projectRoot: request.projectRoot }),
      ...(request.projectRoot !== undefined && request.gitWritable ? { gitWritable: request.gitWritable } : {}),
      ...(request.cacheDir === undefined ? {} : { cacheDir: request.cacheDir }),
      ...(request.visible?.length ? { visible: request.visible } : {}),
      cwd: request.cwd,
      hidden,
      network: hosts ? "proxy" : listed ? "off" : (network as "off" | "on"),
      facts,
      seccompFd: 3,
      command: inner.command,
      args: inner.args,
    });
    const env = {
      ...request.env,
      ...LINUX_SANDBOX_ENV,
      // npm's cache in the lasting cache folder, so what npx downloaded is there at the next start.
      ...(request.cacheDir === undefined ? {} : { npm_config_cache: `${CACHE_MOUNT}/npm` }),
    };
    const filter = await this.seccompFilterFile();
    const command = { command: "/bin/sh", args: ["-c", FD3_TRAMPOLINE, "parley-sandbox", filter, bwrap, ...args] };
    if (!hosts) return { ...command, env, status, release: () => {} };
    const proxy = new HostListProxy(hosts);
    return {
      ...command,
      // The bridge is Node; in VS Code, Parley's runtime is Electron, which runs as Node when told to.
      env: { ...env, ...proxyEnvironment(), ...(process.versions.electron ? { ELECTRON_RUN_AS_NODE: "1" } : {}) },
      status,
      bridge: {
        ipcFd: BRIDGE_IPC_FD,
        attach: (child) =>
          child.on("message", (_message, handle) => {
            if (handle instanceof net.Socket) proxy.accept(handle);
          }),
      },
      release: () => proxy.close(),
    };
  }

  private async seatbelt(
    request: SandboxRequest,
    hidden: string[],
    facts: PathFacts,
    status: SandboxStatus,
  ): Promise<SandboxedCommand> {
    const network = request.settings.network;
    const tmpDir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "parley-command-")));
    const proxy = Array.isArray(network) ? new HostListProxy(network) : undefined;
    const port = proxy ? await proxy.listen() : undefined;
    const root = request.projectRoot;
    const [, ...readOnly] = root === undefined ? [] : readOnlyCandidates(root);
    const gitWritable =
      root === undefined
        ? []
        : (request.gitWritable ?? []).flatMap((p) => (facts.get(p)?.kind === "dir" ? [facts.get(p)!.real] : []));
    const { command, args } = seatbeltArgs({
      ...(root === undefined ? {} : { projectRoot: root }),
      ...(gitWritable.length > 0 ? { gitWritable } : {}),
      ...(request.cacheDir === undefined ? {} : { cacheDir: request.cacheDir }),
      hidden: hidden.flatMap((p) => facts.get(p) ?? []),
      readOnly: readOnly.flatMap((p) => {
        const fact = facts.get(p);
        return fact && root !== undefined && isInside(fact.real, root) ? [fact] : [];
      }),
      tmpDir,
      network: port === undefined ? (network as "off" | "on") : { proxyPort: port },
      command: request.command,
      args: request.args,
    });
    return {
      command,
      args,
      env: {
        ...request.env,
        TMPDIR: tmpDir,
        ...(request.cacheDir === undefined
          ? {}
          : { XDG_CACHE_HOME: request.cacheDir, npm_config_cache: path.join(request.cacheDir, "npm") }),
        ...(port === undefined ? {} : proxyEnvironment(`http://127.0.0.1:${port}`)),
      },
      status,
      release: () => {
        proxy?.close();
        void fs.rm(tmpDir, { recursive: true, force: true }).catch(() => {});
      },
    };
  }

  /** The seccomp filter as a file in Parley's home (hidden from commands), written once per start. */
  private seccompFilterFile(): Promise<string> {
    this.filterFile ??= (async () => {
      const dir = path.join(this.options.appHome, "sandbox");
      await fs.mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, "deny-unix-sockets.bpf");
      await fs.writeFile(file, DENY_UNIX_SOCKETS_FILTER, { mode: 0o600 });
      return file;
    })();
    // A failed write is tried again by the next command rather than remembered.
    this.filterFile.catch(() => (this.filterFile = undefined));
    return this.filterFile;
  }
}
