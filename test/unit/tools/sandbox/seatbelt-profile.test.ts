import assert from "node:assert/strict";
import { seatbeltArgs, seatbeltProfile, type SeatbeltPlan } from "../../../../src/tools/sandbox/seatbelt-profile";

const ROOT = "/Users/ana/code/app";

function plan(overrides: Partial<SeatbeltPlan> = {}): SeatbeltPlan {
  return {
    projectRoot: ROOT,
    hidden: [],
    readOnly: [],
    tmpDir: "/private/var/folders/xy/T/parley-command-1",
    network: "off",
    command: "/bin/sh",
    args: ["-c", "true"],
    ...overrides,
  };
}

describe("the macOS sandbox profile", () => {
  it("denies by default, reads everything, and writes only the project and the command's own temporary folder", () => {
    const { profile, params } = seatbeltProfile(plan());
    const lines = profile.split("\n");
    assert.equal(lines[0], "(version 1)");
    assert.ok(lines.includes("(deny default)"));
    assert.ok(lines.includes("(allow file-read*)"));
    assert.ok(lines.includes('(allow file-write* (subpath (param "PROJECT")) (subpath (param "TMP")))'));
    assert.deepEqual(params, { PROJECT: ROOT, TMP: "/private/var/folders/xy/T/parley-command-1" });
    assert.ok(lines.includes("(allow signal (target same-sandbox))"), "no signal to Parley or anything outside");
  });

  it("never writes a path into the profile: paths are parameters, so none can close a string or add a rule", () => {
    const evil = '/Users/ana/x") (allow default) ("';
    const { profile, params } = seatbeltProfile(
      plan({ projectRoot: evil, hidden: [{ real: `${evil}-h`, kind: "dir" }], tmpDir: `${evil}-t` }),
    );
    assert.ok(!profile.includes("/Users/ana"), "no path in the text");
    assert.ok(!profile.includes("(allow default)"));
    assert.equal(params.PROJECT, evil);
    assert.equal(params.HIDE_0, `${evil}-h`);
  });

  it("hides folders as subpaths and files as literals; one that holds the project before the project, one inside after", () => {
    const { profile, params } = seatbeltProfile(
      plan({
        hidden: [
          { real: "/Users/ana", kind: "dir" },
          { real: `${ROOT}/.env.secret`, kind: "file" },
        ],
      }),
    );
    const lines = profile.split("\n");
    const denyOutside = lines.indexOf('(deny file-read* (subpath (param "HIDE_0")))');
    const allowProject = lines.indexOf('(allow file-read* (subpath (param "PROJECT")))');
    const denyInside = lines.indexOf('(deny file-read* file-write* (literal (param "HIDE_1")))');
    assert.ok(denyOutside > 0 && allowProject > denyOutside && denyInside > allowProject, profile);
    assert.equal(params.HIDE_0, "/Users/ana");
    // A folder holding the project is not denied for writing: the project inside it stays writable.
    assert.ok(!lines.some((l) => l.startsWith("(deny file-write*") && l.includes("HIDE_0")));
  });

  it("without a project writes only its temporary folder, and its cache folder after the hidden paths are denied", () => {
    const { profile, params } = seatbeltProfile(
      plan({
        projectRoot: undefined,
        cacheDir: "/Users/ana/.app/mcp-cache/abc",
        hidden: [{ real: "/Users/ana/.app", kind: "dir" }],
      }),
    );
    const lines = profile.split("\n");
    assert.ok(!profile.includes("PROJECT"));
    assert.deepEqual(params.CACHE, "/Users/ana/.app/mcp-cache/abc");
    const deny = lines.indexOf('(deny file-read* (subpath (param "HIDE_0")))');
    const read = lines.indexOf('(allow file-read* (subpath (param "CACHE")))');
    assert.ok(deny > 0 && read > deny, profile);
    assert.ok(lines.includes('(allow file-write* (subpath (param "TMP")) (subpath (param "CACHE")))'));
  });

  it("keeps .git/hooks and .git/config read-only after allowing the project's writes", () => {
    const { profile } = seatbeltProfile(
      plan({
        readOnly: [
          { real: `${ROOT}/.git/hooks`, kind: "dir" },
          { real: `${ROOT}/.git/config`, kind: "file" },
        ],
      }),
    );
    const lines = profile.split("\n");
    const allowWrite = lines.findIndex((l) => l.startsWith('(allow file-write* (subpath (param "PROJECT"))'));
    const denyWrite = lines.indexOf('(deny file-write* (subpath (param "READONLY_0")) (literal (param "READONLY_1")))');
    assert.ok(allowWrite > 0 && denyWrite > allowWrite);
  });

  it("opens no network when off, IP traffic (no Unix sockets) when on, and only the proxy's port for a host list", () => {
    const off = seatbeltProfile(plan({ network: "off" })).profile;
    assert.ok(!off.includes("network"));
    const on = seatbeltProfile(plan({ network: "on" })).profile;
    assert.ok(on.includes('(allow network-outbound (remote ip "*:*"))'));
    assert.ok(!on.includes("(allow network*)") && !on.includes("unix"));
    const proxy = seatbeltProfile(plan({ network: { proxyPort: 41234 } })).profile;
    assert.ok(proxy.includes('(allow network-outbound (remote tcp "localhost:41234"))'));
    assert.ok(!proxy.includes('remote ip "*:*"'));
  });

  it("runs sandbox-exec with the profile, each parameter as -D NAME=value, and the command after --", () => {
    const { command, args } = seatbeltArgs(plan({ args: ["-c", "echo 'a b' \"$HOME\""] }));
    assert.equal(command, "/usr/bin/sandbox-exec");
    assert.equal(args[0], "-p");
    assert.deepEqual(args.slice(2, 6), [
      "-D",
      `PROJECT=${ROOT}`,
      "-D",
      "TMP=/private/var/folders/xy/T/parley-command-1",
    ]);
    assert.deepEqual(args.slice(args.indexOf("--")), ["--", "/bin/sh", "-c", "echo 'a b' \"$HOME\""]);
  });
});
