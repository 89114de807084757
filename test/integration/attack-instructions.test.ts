// GET /api/instructions attacked: agent file names and skill folders that try to leave the project
// (traversal, absolute paths, symlinks), and files that are not files (FIFOs, folders) or are huge.
// Nothing outside the project is ever named, and nothing blocks the answer.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { apiErrorBodySchema } from "../../src/shared/api-error";
import { instructionSourcesSchema } from "../../src/shared/tools";
import { MAX_AGENT_FILES } from "../../src/prompts/instruction-files";
import { MAX_REFERENCED_FILE_BYTES } from "../../src/chat/referenced-files";
import { makeTempDir, removeDir } from "../helpers/temp";
import { projectQuery, startTestServer, type TestServer } from "../helpers/test-server";

describe("GET /api/instructions under attack", () => {
  let s: TestServer;
  let dir: string;
  let outside: string;
  const skillDir = (name: string) => path.join(dir, ".agents", "skills", name);
  const read = async () => {
    const res = await s.api("GET", `/api/instructions?${projectQuery(dir)}`);
    assert.equal(res.status, 200, await res.clone().text());
    return instructionSourcesSchema.parse(await res.json());
  };

  beforeEach(async () => {
    s = await startTestServer();
    dir = s.projectDir;
    outside = makeTempDir("parley-outside-");
    fs.writeFileSync(path.join(outside, "SECRET.md"), "---\nname: stolen\ndescription: secret-description\n---\n");
    fs.mkdirSync(path.join(outside, "skill"));
    fs.writeFileSync(path.join(outside, "skill", "SKILL.md"), "---\nname: outside-skill\n---\n");
  });
  afterEach(async () => {
    await s.stop();
    removeDir(outside);
  });

  it("names no file for traversing, absolute, encoded or backslashed agentFileNames", async () => {
    const names = [
      "../../etc/passwd",
      "/etc/passwd",
      "..\\..\\etc\\passwd",
      "a/../../etc/passwd",
      "%2e%2e/etc/passwd",
      "./../SECRET.md",
      path.join(outside, "SECRET.md"),
      "AGENTS.md\u0000.txt",
      "~/.ssh/id_rsa",
    ];
    fs.writeFileSync(path.join(dir, ".app.json"), JSON.stringify({ agentFileNames: names }));
    const answer = await read();
    assert.deepEqual(answer.agentFiles.files, []);
    assert.ok(!JSON.stringify(answer).includes("root:"), "no file content in the answer");
  });

  it("reads each agent file once and at most MAX_AGENT_FILES of them, however many names a project lists", async () => {
    for (let n = 0; n < 40; n++) fs.writeFileSync(path.join(dir, `agents-${n}.md`), `file ${n}`);
    const names = [
      ...Array.from({ length: 3 }, () => "agents-0.md"),
      ...Array.from({ length: 5000 }, (_, n) => `agents-${n}.md`),
    ];
    fs.writeFileSync(path.join(dir, ".app.json"), JSON.stringify({ agentFileNames: names }));
    const files = (await read()).agentFiles.files;
    assert.equal(files.length, MAX_AGENT_FILES);
    assert.equal(new Set(files).size, files.length, "each file once");
    assert.equal(files[0], "agents-0.md");
  });

  it("lists no skill reached through a symlinked skill folder, skills folder or SKILL.md outside the project", async () => {
    fs.mkdirSync(path.join(dir, ".agents", "skills"), { recursive: true });
    fs.symlinkSync(path.join(outside, "skill"), skillDir("linked-folder"));
    fs.mkdirSync(skillDir("linked-file"));
    fs.symlinkSync(path.join(outside, "SECRET.md"), path.join(skillDir("linked-file"), "SKILL.md"));
    assert.deepEqual((await read()).skills.items, []);
    // The whole skills folder a link out of the project.
    removeDir(path.join(dir, ".agents"));
    fs.mkdirSync(path.join(dir, ".agents"));
    fs.symlinkSync(outside, path.join(dir, ".agents", "skills"));
    fs.mkdirSync(path.join(outside, "real"));
    fs.writeFileSync(path.join(outside, "real", "SKILL.md"), "---\nname: via-linked-root\n---\n");
    const answer = await read();
    assert.deepEqual(answer.skills.items, []);
    assert.ok(!JSON.stringify(answer).includes("secret-description"));
  });

  it("skips a SKILL.md or agent file that is a FIFO or a folder without blocking, and one over the size limit", async () => {
    fs.mkdirSync(skillDir("fifo"), { recursive: true });
    execFileSync("mkfifo", [path.join(skillDir("fifo"), "SKILL.md")]);
    execFileSync("mkfifo", [path.join(dir, "AGENTS.md")]);
    fs.mkdirSync(path.join(skillDir("folder"), "SKILL.md"), { recursive: true });
    fs.mkdirSync(skillDir("huge"), { recursive: true });
    fs.writeFileSync(
      path.join(skillDir("huge"), "SKILL.md"),
      `---\nname: huge\n---\n${"x".repeat(MAX_REFERENCED_FILE_BYTES)}`,
    );
    fs.mkdirSync(skillDir("ok"), { recursive: true });
    fs.writeFileSync(path.join(skillDir("ok"), "SKILL.md"), "---\nname: fine\n---\n");
    const answer = await read();
    assert.deepEqual(answer.agentFiles.files, []);
    assert.deepEqual(
      answer.skills.items.map((i) => i.name),
      ["fine"],
    );
  });

  it("answers with no skill and no agent file for a skills folder and an AGENTS.md that are symlink loops, or unreadable", async () => {
    fs.mkdirSync(path.join(dir, ".agents"));
    fs.symlinkSync("skills", path.join(dir, ".agents", "skills")); // a loop: skills -> skills
    fs.symlinkSync("AGENTS.md", path.join(dir, "AGENTS.md"));
    fs.mkdirSync(path.join(dir, "locked"), { mode: 0o000 });
    await s.api("PATCH", `/api/settings/project?${projectQuery(dir)}`, {
      agentFileNames: ["AGENTS.md", "locked/AGENTS.md"],
    });
    const sources = await read();
    assert.deepEqual(sources.skills.items, []);
    assert.deepEqual(sources.agentFiles.files, []);
  });

  it("reads hostile front matter (alias bombs, objects, binary) as plain names or folder names", async () => {
    const bomb = [
      "---",
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...Array.from(
        { length: 9 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      ),
      "name: *j",
      "---",
      "",
    ].join("\n");
    for (const [name, text] of [
      ["bomb", bomb],
      ["object", "---\nname: {a: 1}\ndescription: [1, 2]\n---\n"],
      ["binary", "---\nname: x\n---\n\u0000\u0001"],
    ] as const) {
      fs.mkdirSync(skillDir(name), { recursive: true });
      fs.writeFileSync(path.join(skillDir(name), "SKILL.md"), text);
    }
    const answer = await read();
    // The bomb is refused by the YAML parser's alias limit; the line-by-line fallback keeps its text.
    assert.deepEqual(
      answer.skills.items.map((i) => [i.name, i.description]),
      [
        ["*j", ""],
        ["object", ""],
      ],
    );
  });

  it("lists at most 100 skills however many folders there are", async () => {
    for (let i = 0; i < 130; i++) {
      fs.mkdirSync(skillDir(`s${String(i).padStart(3, "0")}`), { recursive: true });
      fs.writeFileSync(path.join(skillDir(`s${String(i).padStart(3, "0")}`), "SKILL.md"), "x\n");
    }
    assert.equal((await read()).skills.items.length, 100);
  });

  it("answers for a damaged or hostile .app.json with the defaults, and for / itself", async () => {
    fs.writeFileSync(path.join(dir, "AGENTS.md"), "# rules\n");
    for (const text of [
      "{not json",
      '{"agentFileNames": "AGENTS.md"}',
      '{"agentFileNames": [1, null, {}]}',
      '{"agentFileNames": {"__proto__": ["x"]}}',
      '{"agentFiles": "yes", "skills": null}',
    ]) {
      fs.writeFileSync(path.join(dir, ".app.json"), text);
      const answer = await read();
      assert.deepEqual(answer.agentFiles.files, ["AGENTS.md"], text);
      assert.equal(answer.agentFiles.enabled, true, text);
    }
    const root = await s.api("GET", "/api/instructions?projectDir=%2F");
    assert.equal(root.status, 200);
    assert.ok(instructionSourcesSchema.safeParse(await root.json()).success);
  });

  it("refuses a projectDir that is a file, missing, relative or repeated with a contract 4xx", async () => {
    fs.writeFileSync(path.join(dir, "file.txt"), "x");
    for (const query of [
      `projectDir=${encodeURIComponent(path.join(dir, "file.txt"))}`,
      `projectDir=${encodeURIComponent(path.join(dir, "nope"))}`,
      "projectDir=.",
      `projectDir=${encodeURIComponent(dir)}&projectDir=${encodeURIComponent(dir)}`,
      "projectDir=",
    ]) {
      const res = await s.api("GET", `/api/instructions?${query}`);
      assert.ok(res.status >= 400 && res.status < 500, `${query}: ${res.status}`);
      assert.ok(apiErrorBodySchema.safeParse(await res.json()).success, query);
    }
  });
});
