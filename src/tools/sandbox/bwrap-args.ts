// The bubblewrap (`bwrap`) command line for a sandboxed command on Linux (contract 7.5), as an argv
// array: nothing here is ever joined into a shell string. Inside: the whole file system read-only, the
// project (if any) read-write except `.git/hooks` and `.git/config`, a private `/tmp` (optionally with
// a cache folder that outlives the command), a fresh `/dev` and
// `/proc`, the hidden paths covered by empty read-only stand-ins, no network unless allowed, its own
// process namespace (nothing outlives it, nothing outside can be signalled), no capabilities, and a
// seccomp filter read from a file descriptor. Pure: what the disk holds comes in as `facts`.
import { isInside, readOnlyCandidates, type PathFacts } from "./path-facts";

export type BwrapPlan = {
  /** The project folder's real path: read-write. None: nothing is writable but the private `/tmp`. */
  projectRoot?: string;
  /**
   * Where the command starts (a real path). Outside the project it is bound read-only, so a folder
   * under `/tmp` (which the private `/tmp` would cover) is still there; one inside a hidden path is not.
   */
  cwd: string;
  /**
   * A worktree chat's share of its repository's git folder (real paths): the folders its commands may
   * write so git commits on the chat's branch (the objects, the worktree's own folder there, its
   * branch's ref folders). The rest of that git folder stays read-only: the user's branches, HEAD,
   * index, hooks and config are out of reach.
   */
  gitWritable?: readonly string[];
  /** A host folder bound read-write at `CACHE_MOUNT`: caches that outlive the command (an MCP server's). */
  cacheDir?: string;
  /**
   * Folders bound read-only where they are (real paths), so the private `/tmp` does not cover them:
   * an MCP server's own code kept under `/tmp`. Hidden paths inside them stay hidden.
   */
  visible?: readonly string[];
  /** Paths to hide (absolute; those absent from `facts` do not exist and are skipped). */
  hidden: readonly string[];
  /** `off` and `proxy` unshare the network (the proxy is reached another way); `on` keeps the host's. */
  network: "off" | "on" | "proxy";
  /** What exists of `hidden` and of the project's `.git` parts. */
  facts: PathFacts;
  /** A file descriptor the seccomp filter is read from (bwrap `--seccomp`); none: no filter. */
  seccompFd?: number;
  command: string;
  args: readonly string[];
};

/** Where `cacheDir` appears inside the sandbox: in the private `/tmp`, where `XDG_CACHE_HOME` points. */
export const CACHE_MOUNT = "/tmp/.cache";

/** A folder to hide becomes an empty tmpfs (made read-only at the end); a file (or socket) an empty read-only file. */
function hide(real: string, kind: "dir" | "file"): string[] {
  return kind === "dir" ? ["--tmpfs", real] : ["--ro-bind", "/dev/null", real];
}

/**
 * Hidden paths in the order they must be mounted. One that holds the project (a worktree under
 * Parley's home) is hidden before the project is bound, so the project shows through; one inside
 * the project (the project is the home folder) after, so the bind does not bring it back. Paths under
 * `/tmp` are hidden by the private `/tmp` already, and a path inside another hidden one by that one.
 */
function hiddenMounts(plan: BwrapPlan): { before: string[]; after: string[]; readOnly: string[] } {
  const before: string[] = [];
  const after: string[] = [];
  // Read-only only once everything is mounted: the project's mount point may have to be made inside one.
  const readOnly: string[] = [];
  const done: string[] = [];
  const boundCwd = cwdMount(plan).length > 0 ? plan.cwd : undefined;
  const reals = plan.hidden
    .map((p) => plan.facts.get(p))
    .filter((fact) => fact !== undefined)
    // Outer folders first, so an inner one is recognised as covered.
    .sort((a, b) => a.real.length - b.real.length);
  for (const { real, kind } of reals) {
    if (real === "/" || real === plan.projectRoot) continue;
    if (done.some((outer) => isInside(real, outer))) continue;
    const insideProject = plan.projectRoot !== undefined && isInside(real, plan.projectRoot);
    // Unless the project or the working folder brings that part of the host's /tmp back.
    const insideCwd = boundCwd !== undefined && isInside(real, boundCwd);
    if (!insideProject && !insideCwd && isInside(real, "/tmp")) continue;
    (insideProject ? after : before).push(...hide(real, kind));
    if (kind === "dir") readOnly.push("--remount-ro", real);
    done.push(real);
  }
  return { before, after, readOnly };
}

/** The project's git parts that git runs for the user, bound read-only over the read-write project. */
function readOnlyMounts(plan: BwrapPlan & { projectRoot: string }): string[] {
  const [gitDir, ...parts] = readOnlyCandidates(plan.projectRoot);
  // A `.git` file (a worktree, a submodule) points to a git folder outside the project: read-only
  // already. A part whose real path leaves the project (a symlinked hooks folder) is too.
  if (plan.facts.get(gitDir!)?.kind !== "dir") return [];
  return parts.flatMap((part) => {
    const real = plan.facts.get(part)?.real;
    return real && isInside(real, plan.projectRoot) ? ["--ro-bind", real, real] : [];
  });
}

/** The project, read-write with its git parts read-only; nothing without one. */
function projectMounts(plan: BwrapPlan): string[] {
  const root = plan.projectRoot;
  return root === undefined ? [] : ["--bind", root, root, ...readOnlyMounts({ ...plan, projectRoot: root })];
}

/** A worktree chat's share of its repository's git folder, read-write; those that are not there are skipped. */
function gitShareMounts(plan: BwrapPlan): string[] {
  return (plan.gitWritable ?? []).flatMap((folder) => {
    const fact = plan.facts.get(folder);
    return fact?.kind === "dir" ? ["--bind", fact.real, fact.real] : [];
  });
}

/**
 * A working folder outside the project, bound read-only where it is: visible even under `/tmp`. Not
 * one inside a hidden path, which stays hidden (bwrap then fails to enter it, and says so). Hidden
 * paths inside it are mounted after it, so they stay hidden.
 */
function cwdMount(plan: BwrapPlan): string[] {
  if (plan.projectRoot !== undefined && isInside(plan.cwd, plan.projectRoot)) return [];
  const hidden = plan.hidden.flatMap((p) => plan.facts.get(p)?.real ?? []);
  if (plan.cwd === "/" || hidden.some((real) => isInside(plan.cwd, real))) return [];
  return ["--ro-bind", plan.cwd, plan.cwd];
}

export function bwrapArgs(plan: BwrapPlan): string[] {
  const { before, after, readOnly } = hiddenMounts(plan);
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    ...(plan.cacheDir === undefined ? [] : ["--bind", plan.cacheDir, CACHE_MOUNT]),
    // Before the hidden paths: a bind brings the host's folder back whole, so they go on top of it.
    ...(plan.visible ?? []).flatMap((folder) => ["--ro-bind", folder, folder]),
    ...cwdMount(plan),
    ...before,
    ...projectMounts(plan),
    ...gitShareMounts(plan),
    ...after,
    ...readOnly,
    ...(plan.network === "on" ? [] : ["--unshare-net"]),
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--new-session",
    // Run as root (a container, CI), bwrap would keep every capability: enough to remount `/` read-write.
    "--cap-drop",
    "ALL",
    ...(plan.seccompFd === undefined ? [] : ["--seccomp", String(plan.seccompFd)]),
    "--chdir",
    plan.cwd,
    "--",
    plan.command,
    ...plan.args,
  ];
}
