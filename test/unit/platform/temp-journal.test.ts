import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { TempJournal } from "../../../src/platform/temp-journal";
import { makeTempDir, removeDir } from "../../helpers/temp";

describe("temp journal", () => {
  let base: string;
  let journal: TempJournal;
  beforeEach(() => {
    base = makeTempDir();
    journal = new TempJournal();
    journal.configure(path.join(base, "home"));
  });
  afterEach(() => removeDir(base));

  /** A pid that surely belongs to no running process: one that just ended. */
  const deadPid = () =>
    spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString();

  it("removes the temporaries dead processes noted, and only files named like Parley's temporaries", () => {
    const notes = path.join(base, "home", "pending-writes");
    const left = path.join(base, "a.txt.0123.parley-tmp");
    const notOurs = path.join(base, "important.txt");
    fs.writeFileSync(left, "half");
    fs.writeFileSync(notOurs, "keep");
    const pid = deadPid();
    fs.writeFileSync(path.join(notes, `${pid}.aa`), left);
    fs.writeFileSync(path.join(notes, `${pid}.bb`), notOurs);
    fs.writeFileSync(path.join(notes, `${pid}.cc`), "relative.parley-tmp");
    assert.deepEqual(journal.sweep(), { removed: [left] });
    assert.equal(fs.existsSync(left), false);
    assert.equal(fs.readFileSync(notOurs, "utf8"), "keep");
    assert.deepEqual(fs.readdirSync(notes), []);
  });

  it("keeps what live processes noted: writes under way", () => {
    const temp = path.join(base, "b.txt.4567.parley-tmp");
    fs.writeFileSync(temp, "writing");
    const note = journal.begin(temp);
    assert.deepEqual(journal.sweep(), { removed: [] });
    assert.ok(fs.existsSync(temp));
    journal.end(note);
    assert.deepEqual(fs.readdirSync(path.join(base, "home", "pending-writes")), []);
  });
});
