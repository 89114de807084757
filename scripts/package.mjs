// `npm run package`: builds, then packs parley-<version>.vsix and reports what went in.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const { version } = JSON.parse(fs.readFileSync("package.json", "utf8"));
const out = `parley-${version}.vsix`;
// The marketplace page is for people installing Parley, not the developer README at the root.
const readme = "docs/marketplace/README.md";
execFileSync(
  "vsce",
  ["package", "--no-yarn", "--allow-missing-repository", "--skip-license", "--readme-path", readme, "--out", out],
  { stdio: "inherit" },
);
const listing = execFileSync("vsce", ["ls", "--no-yarn"], { encoding: "utf8" }).trim().split("\n");
console.log(JSON.stringify({ package: out, bytes: fs.statSync(out).size, files: listing.length }));
