import assert from "node:assert/strict";
import { parseCli } from "../../../src/platform/cli-args";

const parse = (argv: string[], env: Record<string, string> = {}) => parseCli(argv, env, "/work", "/users/me");

describe("cli arguments", () => {
  it("reads serve with repeated projects, host, port and home", () => {
    assert.deepEqual(
      parse(["serve", "--project", "a", "--project", "/abs/b", "--port", "0", "--home", "h", "--host", "::1"]),
      {
        ok: true,
        request: { command: "serve", projects: ["/work/a", "/abs/b"], host: "::1", port: 0, home: "/work/h" },
      },
    );
  });

  it("defaults home to ~/.app, host to 127.0.0.1 and leaves the port open", () => {
    assert.deepEqual(parse(["serve"]), {
      ok: true,
      request: { command: "serve", projects: [], host: "127.0.0.1", port: undefined, home: "/users/me/.app" },
    });
  });

  it("takes APP_HOME when --home is absent, and --home over APP_HOME", () => {
    const fromEnv = parse(["serve"], { APP_HOME: "/data/parley" });
    assert.ok(fromEnv.ok && fromEnv.request.command === "serve" && fromEnv.request.home === "/data/parley");
    const fromFlag = parse(["serve", "--home", "/x"], { APP_HOME: "/data/parley" });
    assert.ok(fromFlag.ok && fromFlag.request.command === "serve" && fromFlag.request.home === "/x");
  });

  for (const [argv, why] of [
    [["serve", "--bogus"], "unknown flag"],
    [["serve", "--port", "70000"], "port out of range"],
    [["serve", "--port", "12a"], "port not a number"],
    [["serve", "--port"], "missing value"],
    [[], "no command"],
    [["start"], "unknown command"],
    [["serve", "--home", ""], "empty home"],
  ] as const) {
    it(`refuses ${why}`, () => {
      const result = parse([...argv]);
      assert.equal(result.ok, false);
      assert.ok(!result.ok && result.error.length > 0 && !result.error.includes("\n"));
    });
  }
});
