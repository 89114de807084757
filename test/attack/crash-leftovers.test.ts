// kill -9 in the middle of a write leaves its temporary file behind (`*.parley-tmp`, which `git add .`
// would pick up): the next start must remove it, also when it is only seconds old and lies deep in a
// project folder (contract 7.2). Real `parley serve` processes, real kills, real files.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { startCli, type CliProcess } from "../helpers/cli-process";
import { makeTempDir, removeDir } from "../helpers/temp";

const MAX_ROUNDS = 40;

/** Every `*.parley-tmp` under `dir`. */
function leftovers(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith(".parley-tmp"));
}

describe("attack: temporaries a kill -9 leaves in the project", function () {
  this.timeout(180_000);
  let root: string;
  before(() => (root = makeTempDir()));
  after(() => removeDir(root));

  it("are removed at the next start", async () => {
    const project = path.join(root, "proj");
    const home = path.join(root, "home");
    fs.mkdirSync(project);
    let caught = 0;
    for (let round = 0; round < MAX_ROUNDS && caught === 0; round++) {
      const cli = await startCli(["serve", "--project", project, "--home", home, "--port", "0"]);
      await killMidWrite(cli, project);
      caught = leftovers(project).length;
    }
    assert.ok(caught > 0, `a kill landed between a temporary's creation and its rename within ${MAX_ROUNDS} rounds`);
    const restarted = await startCli(["serve", "--project", project, "--home", home, "--port", "0"]);
    try {
      assert.deepEqual(leftovers(project), [], "the ready server has removed them");
      assert.deepEqual(leftovers(home), []);
      assert.match(restarted.stderr(), /removed \d+ temporary file/);
    } finally {
      restarted.child.kill("SIGTERM");
      await restarted.exited;
    }
  });
});

/** Writes big settings files in a burst and kills the server the moment a temporary appears. */
async function killMidWrite(cli: CliProcess, project: string): Promise<void> {
  const headers = { authorization: `Bearer ${cli.ready.token}`, "content-type": "application/json" };
  const q = `projectDir=${encodeURIComponent(project)}`;
  const seen = new Promise<void>((resolve) => {
    const watcher = fs.watch(project, (_event, name) => {
      if (!name?.endsWith(".parley-tmp")) return;
      cli.child.kill("SIGKILL");
      watcher.close();
      resolve();
    });
    void cli.exited.then(() => {
      watcher.close();
      resolve();
    });
  });
  // About 400 KB per write, so each temporary lives long enough to be seen.
  const tags = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`src/file-${i}.ts`, ["x".repeat(200)]]));
  for (let i = 0; i < 20 && cli.child.exitCode === null && cli.child.signalCode === null; i++) {
    void fetch(`${cli.ready.url}/api/settings/project?${q}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ name: `write ${i}`, fileTags: tags }),
    }).catch(() => {});
  }
  await seen;
  await cli.exited;
}
