// GET /api/instructions: the agent files that exist (named by `agentFileNames`) and the project's
// skills, with the master switches, for the preset editor's synthetic groups.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { instructionSourcesSchema } from "../../src/shared/tools";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { makeTempDir, removeDir } from "../helpers/temp";

describe("GET /api/instructions", () => {
  let s: TestServer;
  let dir: string;
  const query = () => `/api/instructions?projectDir=${encodeURIComponent(dir)}`;
  const read = async () => {
    const res = await s.api("GET", query());
    assert.equal(res.status, 200, await res.clone().text());
    return instructionSourcesSchema.parse(await res.json());
  };

  beforeEach(async () => {
    s = await startTestServer();
    dir = s.projectDir;
  });
  afterEach(() => s.stop());

  it("lists nothing in an empty project, with both master switches on", async () => {
    assert.deepEqual(await read(), {
      agentFiles: { enabled: true, names: ["AGENTS.md"], files: [] },
      skills: { enabled: true, items: [] },
    });
  });

  it("lists the agentFileNames that exist and the skills with their front matter, in name order", async () => {
    fs.writeFileSync(path.join(dir, "AGENTS.md"), "# Rules\n");
    fs.writeFileSync(path.join(dir, "CLAUDE.md"), "# More rules\n");
    fs.mkdirSync(path.join(dir, "docs"));
    fs.writeFileSync(
      path.join(dir, ".app.json"),
      JSON.stringify({ agentFileNames: ["AGENTS.md", "docs/MISSING.md", "CLAUDE.md", "docs"] }),
    );
    for (const [name, text] of [
      ["deploy", "---\nname: Deploy\ndescription: Ship it\n---\nSteps\n"],
      ["audit", "No front matter\n"],
    ]) {
      fs.mkdirSync(path.join(dir, ".agents", "skills", name!), { recursive: true });
      fs.writeFileSync(path.join(dir, ".agents", "skills", name!, "SKILL.md"), text!);
    }
    fs.mkdirSync(path.join(dir, ".agents", "skills", "empty"), { recursive: true });
    const answer = await read();
    assert.deepEqual(answer.agentFiles, {
      enabled: true,
      names: ["AGENTS.md", "docs/MISSING.md", "CLAUDE.md", "docs"],
      files: ["AGENTS.md", "CLAUDE.md"],
    });
    assert.deepEqual(answer.skills.items, [
      { name: "audit", description: "", path: ".agents/skills/audit/SKILL.md" },
      { name: "Deploy", description: "Ship it", path: ".agents/skills/deploy/SKILL.md" },
    ]);
  });

  it("reports the project's master switches", async () => {
    fs.writeFileSync(path.join(dir, ".app.json"), JSON.stringify({ agentFiles: false, skills: false }));
    const answer = await read();
    assert.equal(answer.agentFiles.enabled, false);
    assert.equal(answer.skills.enabled, false);
  });

  it("never names a file outside the project, even through a symlink", async () => {
    const outside = makeTempDir("parley-outside-");
    try {
      fs.writeFileSync(path.join(outside, "SECRET.md"), "secret\n");
      fs.symlinkSync(path.join(outside, "SECRET.md"), path.join(dir, "AGENTS.md"));
      fs.writeFileSync(
        path.join(dir, ".app.json"),
        JSON.stringify({ agentFileNames: ["AGENTS.md", "../SECRET.md", path.join(outside, "SECRET.md")] }),
      );
      assert.deepEqual((await read()).agentFiles.files, []);
    } finally {
      removeDir(outside);
    }
  });

  it("registers nothing and writes nothing (a GET), and refuses a missing or relative projectDir with 400", async () => {
    await read();
    assert.deepEqual(await (await s.api("GET", "/api/projects")).json(), []);
    assert.deepEqual(fs.readdirSync(dir), []);
    for (const bad of ["/api/instructions", "/api/instructions?projectDir=relative/dir"]) {
      const res = await s.api("GET", bad);
      assert.equal(res.status, 400, bad);
      assert.equal((await res.json()).error.code, "invalid_request");
    }
  });
});
