// `npm run package`: builds, then packs the vsix and reports what went in (one JSON line per vsix).
//
//   npm run package                                   parley-<version>.vsix, for this machine only: every
//                                                     better-sqlite3 prebuild, and the @parcel/watcher prebuild
//                                                     npm installed here (elsewhere the watcher cannot load and
//                                                     the @ popup's file list is rescanned instead)
//   npm run package -- --target linux-x64 darwin-arm64 …   one parley-<target>-<version>.vsix per VS Code
//                                                     target, each with that platform's own two prebuilds
//   npm run package -- --target all                   every target Parley can be packaged for
//   npm run package -- --target host                  this machine's target
//   --out-dir <dir>                                   where the vsix files go (default: here)
//
// Both native addons are Node-API builds, so one binary per platform serves Node and Electron alike.
// better-sqlite3's npm package carries all its prebuilds; @parcel/watcher's come as one npm package per
// platform, fetched with `npm pack`, checked against package-lock.json's integrity and cached in
// .cache/prebuilds/. A target whose binaries cannot be had is refused, never packed without them.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const invokedFrom = process.cwd();
process.chdir(root);
const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
const vsce = path.join(root, "node_modules/@vscode/vsce/vsce");
// The marketplace page is for people installing Parley, not the developer README at the root.
const readme = "docs/marketplace/README.md";
const vsceFlags = ["--no-yarn", "--allow-missing-repository", "--skip-license", "--readme-path", readme];

/** VS Code's targets → better-sqlite3's prebuild and @parcel/watcher's package for that platform. */
const TARGETS = {
  "linux-x64": { sqlite: "linux-x64", watcher: "linux-x64-glibc" },
  "linux-arm64": { sqlite: "linux-arm64", watcher: "linux-arm64-glibc" },
  "alpine-x64": { sqlite: "linuxmusl-x64", watcher: "linux-x64-musl" },
  "alpine-arm64": { sqlite: "linuxmusl-arm64", watcher: "linux-arm64-musl" },
  "darwin-x64": { sqlite: "darwin-x64", watcher: "darwin-x64" },
  "darwin-arm64": { sqlite: "darwin-arm64", watcher: "darwin-arm64" },
  "win32-x64": { sqlite: "win32-x64", watcher: "win32-x64" },
  "win32-arm64": { sqlite: "win32-arm64", watcher: "win32-arm64" },
};
/** Targets VS Code knows that Parley cannot be packaged for, and why. */
const REFUSED = {
  "linux-armhf":
    "better-sqlite3 ships no 32-bit ARM prebuild (its npm package has linux, linuxmusl, darwin and win32 for x64 and arm64 only), and building one needs an ARM toolchain",
  web: "Parley runs a local server with SQLite and child processes, which a web extension host cannot",
};

function fail(message) {
  console.error(`package: ${message}`);
  process.exit(1);
}

/** The VS Code target of this machine (musl Linux is `alpine`). */
function hostTarget() {
  const musl = process.platform === "linux" && !process.report.getReport().header.glibcVersionRuntime;
  return `${musl ? "alpine" : process.platform}-${process.arch}`;
}

function parseArgs(argv) {
  const options = { targets: [], outDir: root };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--out-dir")
      options.outDir = path.resolve(invokedFrom, argv[++i] ?? fail("--out-dir needs a folder"));
    else if (argv[i] === "--target") {
      while (argv[i + 1] && !argv[i + 1].startsWith("--")) options.targets.push(...argv[++i].split(","));
      if (options.targets.length === 0) fail("--target needs at least one target (or `all`)");
    } else fail(`unknown argument ${argv[i]}`);
  }
  if (options.targets.includes("all")) options.targets = Object.keys(TARGETS);
  options.targets = options.targets.map((target) => (target === "host" ? hostTarget() : target));
  return options;
}

/** The whole-repository vsix of before per-target packing: what this machine has installed. */
function packHere(outDir) {
  const out = path.join(outDir, `parley-${pkg.version}.vsix`);
  execFileSync(process.execPath, [vsce, "package", ...vsceFlags, "--out", out], { stdio: "inherit" });
  const listing = execFileSync(process.execPath, [vsce, "ls", "--no-yarn"], { encoding: "utf8" }).trim().split("\n");
  return { package: out, bytes: fs.statSync(out).size, files: listing.length };
}

const sri = (bytes) => `sha512-${crypto.createHash("sha512").update(bytes).digest("base64")}`;

/**
 * The folder of @parcel/watcher-<platform> at the version of the watcher JS that is bundled (a native
 * part from another version may not match it): the one npm installed here when it is that one, else
 * the registry's, checked against the lockfile.
 */
function watcherPackage(platform) {
  const name = `@parcel/watcher-${platform}`;
  const { version } = JSON.parse(fs.readFileSync("node_modules/@parcel/watcher/package.json", "utf8"));
  const installed = path.join("node_modules", name);
  if (fs.existsSync(path.join(installed, "package.json"))) {
    const have = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")).version;
    if (have === version) return installed;
  }
  const locked = lock.packages?.[`node_modules/${name}`];
  if (!locked?.integrity || locked.version !== version)
    throw new Error(`package-lock.json has no ${name}@${version} to check the download against`);
  const cache = path.resolve(".cache/prebuilds");
  const tarball = path.join(cache, `parcel-watcher-${platform}-${version}.tgz`);
  const unpacked = path.join(cache, `watcher-${platform}-${version}`);
  if (fs.existsSync(path.join(unpacked, "package", "package.json"))) return path.join(unpacked, "package");
  fs.mkdirSync(cache, { recursive: true });
  if (!fs.existsSync(tarball)) {
    try {
      execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", cache, "--silent"], {
        stdio: ["ignore", "ignore", "pipe"],
        shell: process.platform === "win32",
      });
    } catch (error) {
      throw new Error(`cannot fetch ${name}@${version} from the npm registry: ${String(error.stderr ?? error).trim()}`);
    }
  }
  const got = sri(fs.readFileSync(tarball));
  if (got !== locked.integrity) {
    fs.rmSync(tarball);
    throw new Error(`${name}@${version} from the registry does not match package-lock.json (${got})`);
  }
  fs.rmSync(unpacked, { recursive: true, force: true });
  fs.mkdirSync(unpacked);
  execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
  return path.join(unpacked, "package");
}

/** The OS and CPU a native binary is built for, read from its header (ELF, Mach-O or PE). */
function binaryKind(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.readUInt32BE(0) === 0x7f454c46) {
    const machine = { 0x3e: "x64", 0xb7: "arm64", 0x28: "arm" }[bytes.readUInt16LE(18)];
    return `linux-${machine}`;
  }
  if (bytes.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = { 0x01000007: "x64", 0x0100000c: "arm64" }[bytes.readUInt32LE(4)];
    return `darwin-${cpu}`;
  }
  if (bytes.toString("latin1", 0, 2) === "MZ") {
    const pe = bytes.readUInt32LE(0x3c);
    const machine = { 0x8664: "x64", 0xaa64: "arm64" }[bytes.readUInt16LE(pe + 4)];
    return `win32-${machine}`;
  }
  return "unknown";
}

function copy(from, to) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
}

/**
 * One target's vsix, packed from a staging folder (.cache/package/<target>) that holds the bundles,
 * the UI and only that platform's binaries; .vscodeignore still decides what goes in. Its manifest
 * names just the runtime packages it carries, so vsce's `npm list` finds them all there.
 */
function packTarget(target, outDir) {
  if (REFUSED[target]) throw new Error(`cannot package for ${target}: ${REFUSED[target]}`);
  const native = TARGETS[target];
  if (!native)
    throw new Error(`unknown target ${target}; VS Code targets Parley packs for: ${Object.keys(TARGETS).join(", ")}`);
  const sqliteDir = "node_modules/better-sqlite3";
  const sqliteBinary = path.join(sqliteDir, "prebuilds", `${native.sqlite}.node`);
  if (!fs.existsSync(sqliteBinary))
    throw new Error(`cannot package for ${target}: better-sqlite3 has no ${native.sqlite} prebuild (${sqliteBinary})`);
  const watcherDir = watcherPackage(native.watcher);

  const stage = path.resolve(".cache/package", target);
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(stage, { recursive: true });
  for (const file of ["LICENSE", ".vscodeignore", readme]) copy(file, path.join(stage, file));
  for (const file of fs.readdirSync("dist").filter((name) => name.endsWith(".cjs")))
    copy(path.join("dist", file), path.join(stage, "dist", file));
  copy("media", path.join(stage, "media"));

  const sqlitePkg = JSON.parse(fs.readFileSync(path.join(sqliteDir, "package.json"), "utf8"));
  copy(path.join(sqliteDir, "lib"), path.join(stage, sqliteDir, "lib"));
  copy(sqliteBinary, path.join(stage, sqliteBinary));
  // node-addon-api is a build-time header library: a prebuild needs nothing of it at run time.
  delete sqlitePkg.dependencies;
  fs.writeFileSync(path.join(stage, sqliteDir, "package.json"), JSON.stringify(sqlitePkg, null, 2));

  const watcherPkg = JSON.parse(fs.readFileSync(path.join(watcherDir, "package.json"), "utf8"));
  for (const file of ["package.json", "watcher.node"])
    copy(path.join(watcherDir, file), path.join(stage, "node_modules", watcherPkg.name, file));

  // A wrong mapping above would ship a binary that cannot load; the headers say what each one is for.
  const expected = target.replace(/^alpine-/, "linux-");
  for (const file of [sqliteBinary, path.join(watcherDir, "watcher.node")]) {
    const kind = binaryKind(file);
    if (kind !== expected) throw new Error(`cannot package for ${target}: ${file} is a ${kind} binary`);
  }

  // Everything else the extension needs is in the bundles.
  const manifest = {
    ...pkg,
    dependencies: { "better-sqlite3": sqlitePkg.version, [watcherPkg.name]: watcherPkg.version },
  };
  fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  const out = path.join(outDir, `parley-${target}-${pkg.version}.vsix`);
  execFileSync(process.execPath, [vsce, "package", ...vsceFlags, "--target", target, "--out", out], {
    cwd: stage,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const listing = execFileSync(process.execPath, [vsce, "ls", "--no-yarn"], { cwd: stage, encoding: "utf8" })
    .trim()
    .split("\n");
  return {
    package: out,
    target,
    bytes: fs.statSync(out).size,
    files: listing.length,
    native: listing.filter((file) => file.endsWith(".node")),
  };
}

const options = parseArgs(process.argv.slice(2));
fs.mkdirSync(options.outDir, { recursive: true });
if (options.targets.length === 0) {
  console.log(JSON.stringify(packHere(options.outDir)));
} else {
  let failed = false;
  for (const target of options.targets) {
    try {
      console.log(JSON.stringify(packTarget(target, options.outDir)));
    } catch (error) {
      failed = true;
      console.error(`package: ${error.message}`);
    }
  }
  if (failed) process.exit(1);
}
