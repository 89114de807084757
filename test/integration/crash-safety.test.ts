// kill -9 in the middle of a burst of settings writes, repeated: the project file must always parse
// and the database must always open clean.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { openDatabase } from "../../src/platform/db";
import { startCli } from "../helpers/cli-process";
import { makeTempDir, removeDir } from "../helpers/temp";

const ROUNDS = 5;
const WRITES_PER_ROUND = 200;

describe("crash safety under kill -9", function () {
  this.timeout(120_000);
  let root: string;
  before(() => (root = makeTempDir()));
  after(() => removeDir(root));

  it(`keeps .app.json parseable and the database sound across ${ROUNDS} kills mid-burst`, async () => {
    const project = path.join(root, "proj");
    const home = path.join(root, "home");
    fs.mkdirSync(project);
    for (let round = 0; round < ROUNDS; round++) {
      const cli = await startCli(["serve", "--project", project, "--home", home, "--port", "0"]);
      const headers = { authorization: `Bearer ${cli.ready.token}`, "content-type": "application/json" };
      const q = `projectDir=${encodeURIComponent(project)}`;
      // Completed writes of each kind: the app's (SQLite) are far quicker than the project's (a file).
      const completed = { project: 0, app: 0 };
      const enough = 5 + round * 5;
      let landed!: () => void;
      const someLanded = new Promise<void>((resolve) => (landed = resolve));
      const burst = Array.from({ length: WRITES_PER_ROUND }, (_, i) => {
        const [route, body] =
          i % 2 === 0
            ? [
                `/api/settings/project?${q}`,
                { name: `round ${round} write ${i}`, fileTags: { [`f${i}.ts`]: ["x".repeat(i)] } },
              ]
            : ["/api/settings/app", { tags: [`r${round}-${i}`], models: [{ id: `v/m${i}`, label: "L" }] }];
        return fetch(`${cli.ready.url}${route}`, { method: "PATCH", headers, body: JSON.stringify(body) })
          .then(() => {
            completed[i % 2 === 0 ? "project" : "app"]++;
            if (completed.project >= enough && completed.app >= enough) landed();
          })
          .catch(() => {});
      });
      // Kill once some writes of both kinds have landed and many are still in flight.
      await someLanded;
      cli.child.kill("SIGKILL");
      await cli.exited;
      await Promise.all(burst);

      const text = fs.readFileSync(path.join(project, ".app.json"), "utf8");
      assert.doesNotThrow(() => JSON.parse(text), `round ${round}: .app.json parses`);
      const db = openDatabase(path.join(home, "store.sqlite"));
      assert.equal(db.pragma("integrity_check", { simple: true }), "ok");
      const row = db.prepare("SELECT value FROM app_kv WHERE key = 'settings'").get() as { value: string } | undefined;
      if (row) assert.doesNotThrow(() => JSON.parse(row.value), `round ${round}: app settings parse`);
      db.close();
    }
  });
});
