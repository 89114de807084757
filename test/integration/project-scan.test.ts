import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ProjectScanner, scanProjectFiles } from "../../src/mentions/project-scan";
import { makeTempDir, removeDir } from "../helpers/temp";
import { startTestServer, type TestServer } from "../helpers/test-server";

function write(root: string, rel: string, content: string | Buffer = "text\n") {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), content);
}

/** A tree with nested ignores, binaries, a symlink loop, a FIFO and a broken link. */
function hostileTree(root: string) {
  write(root, ".gitignore", "*.log\nbuild/\n!keep.log\n/secret.txt\n");
  write(root, "README.md");
  write(root, "keep.log");
  write(root, "debug.log");
  write(root, "secret.txt");
  write(root, "build/out.js");
  write(root, "src/index.ts");
  write(root, "src/.gitignore", "generated/\n*.tmp\n");
  write(root, "src/generated/api.ts");
  write(root, "src/scratch.tmp");
  write(root, "src/nested/secret.txt", "only the root one is ignored\n");
  write(root, "src/lib/.gitignore", "!*.tmp\n");
  write(root, "src/lib/keep.tmp");
  write(root, "docs/guide.md");
  write(root, "img/logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  write(root, "data/blob", Buffer.from([1, 2, 0, 3]));
  write(root, "data/notes", "plain text without extension\n");
  write(root, "data/fake.txt", "named text\n");
  write(root, "node_modules/pkg/index.js");
  write(root, ".git/HEAD", "ref: refs/heads/main\n");
  fs.symlinkSync(root, path.join(root, "src", "loop"));
  fs.symlinkSync(path.join(root, "README.md"), path.join(root, "docs", "readme-link.md"));
  fs.symlinkSync(path.join(root, "nowhere"), path.join(root, "docs", "broken.md"));
  execFileSync("mkfifo", [path.join(root, "data", "pipe.txt")]);
}

const EXPECTED = [
  ".gitignore",
  "README.md",
  "keep.log",
  "data/fake.txt",
  "data/notes",
  "docs/guide.md",
  "docs/readme-link.md",
  "src/.gitignore",
  "src/index.ts",
  "src/lib/.gitignore",
  "src/lib/keep.tmp",
  "src/nested/secret.txt",
];

describe("project scan", () => {
  let root: string;
  beforeEach(() => {
    root = makeTempDir();
    hostileTree(root);
  });
  afterEach(() => removeDir(root));

  it("honours nested .gitignore files, skips heavy folders, binaries, loops, FIFOs and broken links", async () => {
    assert.deepEqual(await scanProjectFiles(root), EXPECTED);
  });

  it("agrees with ripgrep on ignore rules (differences: binaries, heavy folders, file links)", async function () {
    let rg: string;
    try {
      rg = execFileSync("rg", ["--files", "--hidden", "--no-require-git", "-g", "!.git"], {
        cwd: root,
        encoding: "utf8",
      });
    } catch {
      this.skip();
    }
    // Parley leaves binaries out, always skips node_modules, and lists links to files inside the project.
    const theirs = rg!
      .trim()
      .split("\n")
      .filter(
        (p) => !["img/logo.png", "data/blob"].includes(p) && !p.startsWith("node_modules/") && !p.includes("pipe"),
      );
    assert.deepEqual([...theirs, "docs/readme-link.md"].sort(), [...EXPECTED].sort());
  });

  it("rescans only when the last scan is older than 10 s, and shares a running scan", async () => {
    let now = 0;
    const scanner = new ProjectScanner(10_000, () => now);
    const [a, b] = await Promise.all([scanner.scan("p", root), scanner.scan("p", root)]);
    assert.equal(a, b, "concurrent callers share one scan");
    write(root, "new.ts");
    now = 9_999;
    assert.ok(!(await scanner.scan("p", root)).paths.includes("new.ts"), "fresh enough: no rescan");
    now = 10_001;
    assert.ok((await scanner.scan("p", root)).paths.includes("new.ts"));
  });
});

describe("tags, scan and mention routes", () => {
  let s: TestServer;
  let projectId: string;
  const q = () => `projectDir=${encodeURIComponent(s.projectDir)}`;
  beforeEach(async () => {
    s = await startTestServer();
    write(s.projectDir, "src/fooBar.ts");
    write(s.projectDir, "README.md");
    write(s.projectDir, "docs/auth.md");
    write(
      s.projectDir,
      ".app.json",
      JSON.stringify({
        fileTags: { "docs/auth.md": ["security", "login"] },
        agents: [
          { name: "reviewer", description: "Reviews diffs", model: "anthropic/claude-sonnet-4" },
          { name: "bad agent" },
        ],
        actions: [{ id: "test", label: "Run tests", description: "npm test", command: "npm test" }],
      }),
    );
    projectId = (await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json()).id;
  });
  afterEach(() => s.stop());

  it("lists tags from .app.json and scanned files with their folder", async () => {
    assert.deepEqual(await (await s.api("GET", `/api/projects/${projectId}/tags`)).json(), [
      { path: "docs/auth.md", tags: ["security", "login"] },
    ]);
    const scan = await (await s.api("POST", `/api/projects/${projectId}/tags/scan`)).json();
    assert.match(scan.scannedAt, /Z$/);
    assert.deepEqual(scan.files, [
      { path: ".app.json", name: ".app.json", folder: "Project root" },
      { path: "README.md", name: "README.md", folder: "Project root" },
      { path: "docs/auth.md", name: "auth.md", folder: "docs" },
      { path: "src/fooBar.ts", name: "fooBar.ts", folder: "src" },
    ]);
  });

  it("serves the catalog: tagged files first, agents with pinned model, saved actions, tools with parameters", async () => {
    const catalog = await (await s.api("GET", `/api/mentions/catalog?${q()}`)).json();
    assert.deepEqual(catalog.files[0], {
      path: "docs/auth.md",
      name: "auth.md",
      folder: "docs",
      tags: ["security", "login"],
    });
    assert.deepEqual(
      catalog.agents.map((a: any) => [a.label, a.detail]),
      [["reviewer", "anthropic/claude-sonnet-4"]],
    );
    assert.deepEqual(
      catalog.actions.map((a: any) => [a.label, a.detail, a.insertText]),
      [["Run tests", "npm test", "@test"]],
    );
    assert.equal(catalog.tools.find((t: any) => t.label === "shell").insertText, "@shell:cmd=``");
    assert.deepEqual(catalog.mcp, []);
    assert.equal(catalog.model, null);
  });

  it("searches with ranking, highlights, category filter and limit", async () => {
    const results = await (await s.api("GET", `/api/mentions/search?${q()}&q=bar`)).json();
    assert.deepEqual(results[0], {
      category: "files",
      label: "fooBar.ts",
      detail: "src",
      insertText: "@src/fooBar.ts",
      highlights: [[3, 6]],
    });
    const byTag = await (await s.api("GET", `/api/mentions/search?${q()}&q=login`)).json();
    assert.equal(byTag[0].label, "auth.md");
    const agents = await (await s.api("GET", `/api/mentions/search?${q()}&q=&category=agents`)).json();
    assert.deepEqual(
      agents.map((a: any) => a.label),
      ["reviewer"],
    );
    assert.equal((await (await s.api("GET", `/api/mentions/search?${q()}&q=e&limit=2`)).json()).length, 2);
    assert.equal((await s.api("GET", `/api/mentions/search?${q()}&category=people`)).status, 400);
    assert.equal((await s.api("GET", "/api/mentions/search?q=x")).status, 400);
  });

  it("shows the chat's model, and the agents and actions routes skip damaged entries", async () => {
    const chat = await (
      await s.api("POST", `/api/projects/${projectId}/chats`, { modelId: "openai/gpt-4o-mini" })
    ).json();
    assert.equal(
      (await (await s.api("GET", `/api/mentions/catalog?${q()}&chatId=${chat.id}`)).json()).model,
      "openai/gpt-4o-mini",
    );
    const agents = await s.api("GET", `/api/agents?${q()}`);
    assert.equal(agents.headers.get("x-parley-skipped-entries"), "1");
    // The project's valid agents, then Parley's own (Plan).
    assert.deepEqual(
      ((await agents.json()) as { builtIn?: boolean }[]).filter((a) => !a.builtIn),
      [{ name: "reviewer", description: "Reviews diffs", model: "anthropic/claude-sonnet-4" }],
    );
    assert.deepEqual(await (await s.api("GET", `/api/actions?${q()}`)).json(), [
      { id: "test", label: "Run tests", description: "npm test" },
    ]);
  });
});

describe("scan order", () => {
  it("sorts shallow paths first, then by path, exactly like the comparator", async () => {
    const { compareShallowFirst, sortShallowFirst } = await import("../../src/mentions/project-scan");
    const paths = ["b/c.ts", "a.ts", "B.ts", "a/b/c/d.ts", "a/z.ts", "ä.ts", "a/a.ts", "z/y/x.ts"];
    assert.deepEqual(sortShallowFirst([...paths]), [...paths].sort(compareShallowFirst));
  });
});

describe("scan budget", () => {
  it("stops at its entry budget and says the list is incomplete", async () => {
    const { scanWithinBudget } = await import("../../src/mentions/project-scan");
    const root = makeTempDir();
    try {
      for (let i = 0; i < 50; i++) write(root, `d${i}/f${i}.ts`);
      const small = await scanWithinBudget(root, { maxEntries: 10, maxMs: 60_000 });
      assert.equal(small.complete, false);
      assert.ok(small.paths.length < 50);
      const whole = await scanWithinBudget(root, { maxEntries: 1000, maxMs: 60_000 });
      assert.equal(whole.complete, true);
      assert.equal(whole.paths.length, 50);
    } finally {
      removeDir(root);
    }
  });

  it("never enters /proc, /sys or /dev, even for a project at the file system root", async function () {
    this.timeout(30_000);
    const { scanWithinBudget } = await import("../../src/mentions/project-scan");
    const result = await scanWithinBudget("/", { maxEntries: 20_000, maxMs: 5_000 });
    assert.ok(!result.paths.some((p) => /^(proc|sys|dev)\//.test(p)), "no kernel or device files");
  });
});
