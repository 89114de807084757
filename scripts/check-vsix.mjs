// Checks a packaged Parley vsix on this machine: unpacks it and, under each Node given (default: the
// one running this script), loads it as VS Code's extension host would (scripts/vsix-probe.cjs): the
// app database through the packaged better-sqlite3, the @ popup's search, and the packaged file
// watcher. Run it on each platform a per-target vsix is for, with the Node of the oldest VS Code
// Parley claims (22.15, VS Code 1.101) and a current one.
//
//   node scripts/check-vsix.mjs <file.vsix> [--node <path to node>]... [--without-watcher]
//
// --without-watcher removes the watcher's prebuild first, as on a platform it has none for: the
// extension must still load, with its database and search, and the watcher must fail with a reason.
// Prints one JSON line per Node, with `ok`; exits 1 unless every one is ok.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";

const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), "vsix-probe.cjs");

/** Writes a zip's `extension/` entries (what VS Code installs) into `dir`. A vsix is a plain zip. */
export function unpackVsix(file, dir) {
  const zip = fs.readFileSync(file);
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error(`${file} is not a zip`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: a damaged central directory`);
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    at += 46 + skip;
    if (!name.startsWith("extension/") || name.endsWith("/")) continue;
    const target = path.join(dir, name.slice("extension/".length));
    if (!target.startsWith(dir + path.sep)) throw new Error(`${file}: an entry outside the extension (${name})`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, method === 8 ? zlib.inflateRawSync(data) : data);
  }
}

function judge(report, withoutWatcher) {
  const { database, mentions, watcher } = report;
  const databaseOk =
    database?.projectListed === true &&
    database.journalMode === "wal" &&
    database.userVersion > 0 &&
    database.addon.some((file) => file.startsWith(path.join("node_modules", "better-sqlite3")));
  const watcherOk = withoutWatcher
    ? watcher?.loaded === false && /watcher/i.test(watcher.error ?? "")
    : watcher?.sawCreatedFile === true;
  return !report.error && databaseOk && mentions?.found === true && watcherOk;
}

function main(argv) {
  const nodes = [];
  let vsix;
  let withoutWatcher = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--node") nodes.push(argv[++i]);
    else if (argv[i] === "--without-watcher") withoutWatcher = true;
    else vsix = argv[i];
  }
  if (!vsix) throw new Error("usage: node scripts/check-vsix.mjs <file.vsix> [--node <path>]... [--without-watcher]");
  if (nodes.length === 0) nodes.push(process.execPath);
  const scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "parley-vsix-")));
  const dir = path.join(scratch, "extension");
  let allOk = true;
  try {
    unpackVsix(path.resolve(vsix), dir);
    if (withoutWatcher) {
      for (const name of fs.readdirSync(path.join(dir, "node_modules", "@parcel")))
        fs.rmSync(path.join(dir, "node_modules", "@parcel", name), { recursive: true });
    }
    for (const node of nodes) {
      let line;
      try {
        line = execFileSync(node, [probe, dir, scratch], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          timeout: 30_000,
          killSignal: "SIGKILL",
        });
      } catch (error) {
        // A crash (an addon built for a newer Node-API segfaults on an older Node) prints nothing.
        const how = error.signal ? `was killed by ${error.signal}` : `exited with ${error.status}`;
        line =
          error.stdout || JSON.stringify({ error: `${node} ${how} before reporting: ${error.stderr ?? ""}`.trim() });
      }
      const report = JSON.parse(line.trim().split("\n").pop());
      const ok = judge(report, withoutWatcher);
      allOk &&= ok;
      console.log(JSON.stringify({ ok, withoutWatcher, ...report }));
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return allOk;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)) ? 0 : 1);
