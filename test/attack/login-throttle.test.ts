// Replays the guessing that got past the login throttle: a burst of wrong passwords sent together (each
// was counted only after its slow hash, so all were checked) and guesses spread over many loopback
// addresses (each address had its own counter). Contract 7.2: both stop at the limits, a global lock
// closes password and passkey sign-in for everyone, and the per-start token keeps working.
import assert from "node:assert/strict";
import http from "node:http";
import { startTestServer, type TestServer } from "../helpers/test-server";

const PASSWORD = "correct horse battery staple";

type Answer = { status: number; code?: string };

describe("attack: racing and rotating the login throttle", function () {
  this.timeout(120_000);
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer();
    assert.equal((await s.api("POST", "/api/access/password", { next: PASSWORD })).status, 204);
  });
  afterEach(() => s.stop());

  /** POSTs JSON from a given loopback address (Linux routes all of 127/8 to this host), without credentials. */
  function postFrom(localAddress: string, route: string, body: unknown, host?: string): Promise<Answer> {
    const url = new URL(route, s.url);
    const text = JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: "POST",
          localAddress,
          agent: false,
          headers: {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(text),
            ...(host ? { host } : {}),
          },
        },
        (res) => {
          let answer = "";
          res.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
          res.on("end", () =>
            resolve({
              status: res.statusCode!,
              code: answer ? (JSON.parse(answer) as { error?: { code?: string } }).error?.code : undefined,
            }),
          );
        },
      );
      req.on("error", reject);
      req.end(text);
    });
  }

  const login = (from: string, password: string) => postFrom(from, "/api/access/login", { password });
  const checked = (answers: Answer[]) => answers.filter((a) => a.status === 401).length;

  it("counts 40 wrong passwords sent at once before hashing them: 5 are checked, the rest get 429", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login("127.0.0.2", `wrong guess number ${i}`)),
    );
    assert.ok(
      answers.every((a) => a.status === 401 || (a.status === 429 && a.code === "rate_limited")),
      JSON.stringify(answers),
    );
    assert.ok(checked(answers) <= 5, `${checked(answers)} guesses were checked`);
    assert.equal((await login("127.0.0.2", PASSWORD)).status, 429, "that client is locked out, the right password too");
    assert.equal((await login("127.0.0.3", PASSWORD)).status, 204, "another client is not");
  });

  it("locks sign-in for everyone after more than 20 failures from 10 addresses, passkeys too, but not the token", async () => {
    const addresses = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 2}`);
    const sent = Array.from({ length: 100 }, (_, i) => ({ from: addresses[i % 10]!, password: `rotating guess ${i}` }));
    const answers = await Promise.all(
      sent.map(({ from, password }) => login(from, password).then((answer) => ({ from, ...answer }))),
    );
    assert.ok(
      answers.every((a) => a.status === 401 || (a.status === 429 && a.code === "rate_limited")),
      JSON.stringify(answers),
    );
    for (const address of addresses) {
      const fromIt = checked(answers.filter((a) => a.from === address));
      assert.ok(fromIt <= 5, `${fromIt} guesses from ${address} were checked`);
    }
    assert.ok(checked(answers) <= 20, `${checked(answers)} guesses were checked in all`);
    assert.ok(checked(answers) > 0, "some guesses were checked");

    // The global lock: the right password from an address that never guessed, and passkey sign-in.
    const right = await login("127.0.0.1", PASSWORD);
    assert.deepEqual(
      right,
      { status: 429, code: "rate_limited" },
      "the right password is refused while everyone is locked out",
    );
    assert.equal((await login("127.0.0.200", PASSWORD)).status, 429);
    const port = new URL(s.url).port;
    for (const host of [undefined, `localhost:${port}`]) {
      assert.deepEqual(
        await postFrom("127.0.0.1", "/api/access/login/passkey/options", {}, host),
        { status: 429, code: "rate_limited" },
        `passkey options on ${host ?? "127.0.0.1"}`,
      );
      assert.deepEqual(
        await postFrom("127.0.0.1", "/api/access/login/passkey/verify", { response: { id: "x" } }, host),
        { status: 429, code: "rate_limited" },
        `passkey verify on ${host ?? "127.0.0.1"}`,
      );
    }

    // The per-start token keeps working throughout, and so does its login link.
    assert.equal((await s.api("GET", "/api/projects")).status, 200);
    assert.equal((await (await s.api("GET", "/api/access/status")).json()).authenticated, true);
    const link = await fetch(`${s.url}/?token=${s.token}`, { redirect: "manual" });
    assert.equal(link.status, 302);
    const cookie = link.headers.get("set-cookie")!.split(";")[0]!;
    assert.equal((await fetch(`${s.url}/api/projects`, { headers: { cookie } })).status, 200);
  });
});
