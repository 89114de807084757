import assert from "node:assert/strict";
import { gitShare } from "../../../../src/worktrees/worktree-git";
import { bwrapArgs, CACHE_MOUNT, type BwrapPlan } from "../../../../src/tools/sandbox/bwrap-args";
import type { PathFact } from "../../../../src/tools/sandbox/path-facts";

const ROOT = "/home/ana/code/app";
const dir = (real: string): PathFact => ({ real, kind: "dir" });
const file = (real: string): PathFact => ({ real, kind: "file" });

function plan(overrides: Partial<BwrapPlan> = {}): BwrapPlan {
  return {
    projectRoot: ROOT,
    cwd: ROOT,
    hidden: [],
    network: "off",
    facts: new Map(),
    command: "/bin/sh",
    args: ["-c", "true"],
    ...overrides,
  };
}

/** The pairs and triples of options, as `["--tmpfs /x", …]`, to compare order without index arithmetic. */
function ops(args: string[]): string[] {
  const arity: Record<string, number> = {
    "--ro-bind": 2,
    "--bind": 2,
    "--dev": 1,
    "--proc": 1,
    "--tmpfs": 1,
    "--remount-ro": 1,
    "--seccomp": 1,
    "--chdir": 1,
    "--cap-drop": 1,
  };
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--") {
      out.push(["--", ...args.slice(i + 1)].join(" "));
      break;
    }
    const n = arity[args[i]!] ?? 0;
    out.push(args.slice(i, i + 1 + n).join(" "));
    i += n;
  }
  return out;
}

describe("the bubblewrap command line", () => {
  it("reads the whole file system, writes the project, and has a fresh /dev, /proc and a private /tmp", () => {
    assert.deepEqual(ops(bwrapArgs(plan())), [
      "--ro-bind / /",
      "--dev /dev",
      "--proc /proc",
      "--tmpfs /tmp",
      `--bind ${ROOT} ${ROOT}`,
      "--unshare-net",
      "--unshare-pid",
      "--unshare-ipc",
      "--die-with-parent",
      "--new-session",
      "--cap-drop ALL",
      `--chdir ${ROOT}`,
      "-- /bin/sh -c true",
    ]);
  });

  it("keeps the host's network only when it is on; a host list unshares it (the proxy is reached another way)", () => {
    assert.ok(!bwrapArgs(plan({ network: "on" })).includes("--unshare-net"));
    assert.ok(bwrapArgs(plan({ network: "off" })).includes("--unshare-net"));
    assert.ok(bwrapArgs(plan({ network: "proxy" })).includes("--unshare-net"));
  });

  it("passes the command and its arguments as they are, each one argv element, after --", () => {
    const hostile = ["-c", `echo "$(id)"; rm -rf / ; '--bind' / /`, "--", "--ro-bind", "a b"];
    const args = bwrapArgs(plan({ command: "/bin/sh", args: hostile }));
    // bwrap stops reading options at the first --: everything after it is the command, verbatim.
    assert.deepEqual(args.slice(args.indexOf("--") + 1), ["/bin/sh", ...hostile]);
  });

  it("starts in the given folder and reads the seccomp filter from the given descriptor", () => {
    const args = ops(bwrapArgs(plan({ cwd: `${ROOT}/src`, seccompFd: 3 })));
    assert.ok(args.includes(`--chdir ${ROOT}/src`));
    assert.ok(args.includes("--seccomp 3"));
    assert.ok(!ops(bwrapArgs(plan())).some((op) => op.startsWith("--seccomp")));
  });

  it("binds .git/hooks and .git/config read-only over the read-write project, when they exist", () => {
    const facts = new Map([
      [`${ROOT}/.git`, dir(`${ROOT}/.git`)],
      [`${ROOT}/.git/hooks`, dir(`${ROOT}/.git/hooks`)],
      [`${ROOT}/.git/config`, file(`${ROOT}/.git/config`)],
    ]);
    const args = ops(bwrapArgs(plan({ facts })));
    const bind = args.indexOf(`--bind ${ROOT} ${ROOT}`);
    assert.ok(args.indexOf(`--ro-bind ${ROOT}/.git/hooks ${ROOT}/.git/hooks`) > bind);
    assert.ok(args.indexOf(`--ro-bind ${ROOT}/.git/config ${ROOT}/.git/config`) > bind);
    // Only config: no hooks folder yet.
    facts.delete(`${ROOT}/.git/hooks`);
    assert.deepEqual(
      ops(bwrapArgs(plan({ facts }))).filter((op) => op.includes(".git")),
      [`--ro-bind ${ROOT}/.git/config ${ROOT}/.git/config`],
    );
  });

  it("binds nothing of a .git file (a worktree's), and no git part whose real path leaves the project", () => {
    const worktree = new Map([
      [`${ROOT}/.git`, file(`${ROOT}/.git`)],
      [`${ROOT}/.git/config`, file(`${ROOT}/.git/config`)],
    ]);
    assert.ok(!bwrapArgs(plan({ facts: worktree })).some((a) => a.includes(".git")));
    const linkedOut = new Map([
      [`${ROOT}/.git`, dir(`${ROOT}/.git`)],
      [`${ROOT}/.git/hooks`, dir("/home/ana/shared-hooks")],
      [`${ROOT}/.git/config`, file(`${ROOT}/.git/config`)],
    ]);
    const args = ops(bwrapArgs(plan({ facts: linkedOut })));
    assert.ok(!args.some((op) => op.includes("shared-hooks")), "outside the project it is read-only already");
    assert.ok(args.includes(`--ro-bind ${ROOT}/.git/config ${ROOT}/.git/config`));
  });

  it("binds a worktree chat's share of its git folder read-write after the project mounts, and nothing else of it", () => {
    const home = "/home/ana/.app";
    const worktree = `${home}/worktrees/fix-1a2b3c4d`;
    const gitDir = `${ROOT}/.git`;
    const share = gitShare(gitDir, worktree, "parley/fix");
    assert.deepEqual(share, [
      `${gitDir}/objects`,
      `${gitDir}/worktrees/fix-1a2b3c4d`,
      `${gitDir}/refs/heads/parley`,
      `${gitDir}/logs/refs/heads/parley`,
    ]);
    const facts = new Map<string, ReturnType<typeof dir>>([
      [home, dir(home)],
      ...share.map((p) => [p, dir(p)] as const),
    ]);
    const args = ops(
      bwrapArgs(plan({ projectRoot: worktree, cwd: worktree, gitWritable: share, hidden: [home], facts })),
    );
    const project = args.indexOf(`--bind ${worktree} ${worktree}`);
    for (const folder of share) assert.ok(args.indexOf(`--bind ${folder} ${folder}`) > project, `${folder} writable`);
    assert.ok(
      !args.includes(`--bind ${gitDir} ${gitDir}`),
      "the git folder itself stays read-only (HEAD, index, branches)",
    );
    assert.ok(!args.includes(`--bind ${ROOT} ${ROOT}`), "the project's own tree stays read-only");
    assert.ok(args.indexOf(`--tmpfs ${home}`) < project, "the home is hidden first, the worktree shows through");
    assert.equal(args.filter((op) => op.startsWith("--bind ")).length, 1 + share.length, "nothing else is writable");
  });

  it("shares no ref folder for a branch beside the user's, and binds no share folder that is not there", () => {
    const worktree = "/home/ana/.app/worktrees/mine-1a2b3c4d";
    const gitDir = `${ROOT}/.git`;
    assert.deepEqual(gitShare(gitDir, worktree, "mine"), [`${gitDir}/objects`, `${gitDir}/worktrees/mine-1a2b3c4d`]);
    const share = gitShare(gitDir, worktree, "team/x");
    assert.ok(share.includes(`${gitDir}/refs/heads/team`));
    const none = ops(bwrapArgs(plan({ projectRoot: worktree, cwd: worktree, gitWritable: share, facts: new Map() })));
    assert.ok(!none.some((op) => op.includes(gitDir)), "absent: nothing bound");
    const asFile = new Map([[share[0]!, file(share[0]!)]]);
    assert.ok(
      !ops(bwrapArgs(plan({ projectRoot: worktree, cwd: worktree, gitWritable: share, facts: asFile }))).some((op) =>
        op.includes(gitDir),
      ),
      "a file where a folder should be: not bound",
    );
  });
  it("hides existing folders behind a read-only tmpfs and files behind /dev/null, and skips what does not exist", () => {
    const facts = new Map([
      ["/home/ana/.ssh", dir("/home/ana/.ssh")],
      ["/home/ana/.netrc", file("/home/ana/.netrc")],
    ]);
    const args = ops(bwrapArgs(plan({ hidden: ["/home/ana/.ssh", "/home/ana/.netrc", "/home/ana/.aws"], facts })));
    assert.ok(args.includes("--tmpfs /home/ana/.ssh"));
    assert.ok(args.includes("--ro-bind /dev/null /home/ana/.netrc"));
    assert.ok(!args.some((op) => op.includes(".aws")));
    // Read-only once everything is mounted.
    assert.ok(args.indexOf("--remount-ro /home/ana/.ssh") > args.indexOf(`--bind ${ROOT} ${ROOT}`));
  });

  it("hides a symlinked path at its real location", () => {
    const facts = new Map([["/home/ana/.aws", dir("/data/ana/aws")]]);
    const args = ops(bwrapArgs(plan({ hidden: ["/home/ana/.aws"], facts })));
    assert.ok(args.includes("--tmpfs /data/ana/aws"));
  });

  it("hides a folder that holds the project before binding it (the project shows through), one inside after", () => {
    const holder = "/home/ana/.app";
    const worktree = `${holder}/worktrees/chat-1`;
    const facts = new Map([[holder, dir(holder)]]);
    const args = ops(bwrapArgs(plan({ projectRoot: worktree, cwd: worktree, hidden: [holder], facts })));
    assert.ok(args.indexOf(`--tmpfs ${holder}`) < args.indexOf(`--bind ${worktree} ${worktree}`));
    assert.ok(args.indexOf(`--remount-ro ${holder}`) > args.indexOf(`--bind ${worktree} ${worktree}`));

    // The project is the home folder: ~/.ssh inside it is hidden after the bind, or the bind brings it back.
    const home = "/home/ana";
    const inHome = new Map([[`${home}/.ssh`, dir(`${home}/.ssh`)]]);
    const homeArgs = ops(bwrapArgs(plan({ projectRoot: home, cwd: home, hidden: [`${home}/.ssh`], facts: inHome })));
    assert.ok(homeArgs.indexOf(`--tmpfs ${home}/.ssh`) > homeArgs.indexOf(`--bind ${home} ${home}`));
  });

  it("never hides the project itself or /, and leaves paths under /tmp and inside a hidden folder to those", () => {
    const facts = new Map([
      [ROOT, dir(ROOT)],
      ["/", dir("/")],
      ["/tmp/parley-home", dir("/tmp/parley-home")],
      ["/home/ana/.docker", dir("/home/ana/.docker")],
      ["/home/ana/.docker/config.json", file("/home/ana/.docker/config.json")],
    ]);
    const args = ops(bwrapArgs(plan({ hidden: [...facts.keys()], facts })));
    const hides = args.filter((op) => op.startsWith("--tmpfs") || op.startsWith("--ro-bind /dev/null"));
    assert.deepEqual(hides, ["--tmpfs /tmp", "--tmpfs /home/ana/.docker"]);
  });

  it("writes nothing but /tmp without a project, and binds a working folder outside the project read-only", () => {
    const cwd = "/tmp/work/notes";
    const args = ops(bwrapArgs(plan({ projectRoot: undefined, cwd })));
    assert.ok(!args.some((op) => op.startsWith("--bind ")), "no read-write bind");
    assert.ok(args.includes(`--ro-bind ${cwd} ${cwd}`), "a folder under /tmp is still there to start in");
    assert.ok(args.includes(`--chdir ${cwd}`));
    assert.ok(!ops(bwrapArgs(plan({ cwd: `${ROOT}/src` }))).includes(`--ro-bind ${ROOT}/src ${ROOT}/src`));
  });

  it("binds the working folder before the hidden paths inside it, and never one a hidden path holds", () => {
    const home = "/home/ana";
    const facts = new Map([[`${home}/.ssh`, dir(`${home}/.ssh`)]]);
    const args = ops(bwrapArgs(plan({ projectRoot: undefined, cwd: home, hidden: [`${home}/.ssh`], facts })));
    // The bind brings the host's folder back whole: ~/.ssh has to be hidden on top of it.
    assert.ok(args.indexOf(`--tmpfs ${home}/.ssh`) > args.indexOf(`--ro-bind ${home} ${home}`));
    const inside = `${home}/.ssh/keys`;
    const hiddenCwd = ops(bwrapArgs(plan({ projectRoot: undefined, cwd: inside, hidden: [`${home}/.ssh`], facts })));
    assert.ok(!hiddenCwd.some((op) => op.startsWith("--ro-bind") && op.includes(inside)));
    // A hidden path under /tmp inside the bound working folder is hidden too.
    const tmpFacts = new Map([["/tmp/w/.app", dir("/tmp/w/.app")]]);
    const tmpArgs = ops(
      bwrapArgs(plan({ projectRoot: undefined, cwd: "/tmp/w", hidden: ["/tmp/w/.app"], facts: tmpFacts })),
    );
    assert.ok(tmpArgs.indexOf("--tmpfs /tmp/w/.app") > tmpArgs.indexOf("--ro-bind /tmp/w /tmp/w"));
  });

  it("binds a cache folder read-write in the private /tmp", () => {
    const args = ops(bwrapArgs(plan({ cacheDir: "/home/ana/.app/mcp-cache/abc" })));
    assert.ok(args.indexOf(`--bind /home/ana/.app/mcp-cache/abc ${CACHE_MOUNT}`) > args.indexOf("--tmpfs /tmp"));
    assert.equal(CACHE_MOUNT, "/tmp/.cache");
  });

  it("hides a path under /tmp when the project is there too and the path is inside it", () => {
    const project = "/tmp/work/app";
    const facts = new Map([[`${project}/.app`, dir(`${project}/.app`)]]);
    const args = ops(bwrapArgs(plan({ projectRoot: project, cwd: project, hidden: [`${project}/.app`], facts })));
    assert.ok(args.indexOf(`--tmpfs ${project}/.app`) > args.indexOf(`--bind ${project} ${project}`));
  });
});
