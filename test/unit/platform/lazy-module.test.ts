import assert from "node:assert/strict";
import { lazyModule, warmInBackground } from "../../../src/platform/lazy-module";

describe("modules loaded off the start-up path", () => {
  it("loads once, on the first call, and gives every caller, concurrent ones included, the same module", async () => {
    let loads = 0;
    const load = lazyModule(async () => ({ n: ++loads }));
    assert.equal(loads, 0, "nothing before the first call");
    const [a, b] = await Promise.all([load(), load()]);
    const c = await load();
    assert.equal(loads, 1);
    assert.ok(a === b && b === c);
  });

  it("reports a failed load to its caller and tries again on the next call", async () => {
    let calls = 0;
    const load = lazyModule(async () => {
      if (++calls === 1) throw new Error("not installed");
      return "module";
    });
    await assert.rejects(load(), /not installed/);
    assert.equal(await load(), "module");
    assert.equal(calls, 2);
  });

  it("hands out the loaded module without waiting, once it has loaded, and nothing before or after a failure", async () => {
    let fail = true;
    const load = lazyModule(async () => {
      if (fail) throw new Error("not yet");
      return { ready: true };
    });
    assert.equal(load.loaded(), undefined, "nothing before the first call");
    await assert.rejects(load());
    assert.equal(load.loaded(), undefined, "nothing after a failed load");
    fail = false;
    const pending = load();
    assert.equal(load.loaded(), undefined, "nothing while it loads");
    const module = await pending;
    assert.equal(load.loaded(), module);
  });

  it("warms loaders one at a time, each in a turn of the event loop of its own, past a failing one", async () => {
    const log: string[] = [];
    const loader =
      (name: string, fail = false) =>
      async () => {
        log.push(`start ${name}`);
        if (fail) throw new Error(name);
        log.push(`end ${name}`);
      };
    // A request arriving meanwhile (an immediate queued now) runs before the first load, not after all of them.
    setImmediate(() => log.push("request"));
    const a = loader("a");
    const queuingA = async () => {
      await a();
      // Queued while `a` loads: it runs before `b` starts, so loads never follow one another in one turn.
      setImmediate(() => log.push("between"));
    };
    const warming = warmInBackground([queuingA, loader("b", true), loader("c")]);
    assert.deepEqual(log, [], "nothing loads in the caller's turn");
    await warming;
    assert.deepEqual(log, ["request", "start a", "end a", "between", "start b", "start c", "end c"]);
  });
});
