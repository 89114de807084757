// Replays the spellings of the app's page that got past the sign-in page (`//index.html`, `/%69ndex.html`,
// `/./index.html`, `///`): with a password set and no session, every spelling answers the sign-in page or
// a redirect to it, never the app shell; the API answers 401; the sign-in page's own files, and the UI's
// bundle under /assets/, still load, in any spelling, and no page is reached through them.
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { makeTempDir, removeDir } from "../helpers/temp";

const PASSWORD = "correct horse battery staple";
const SHELL = "APP-SHELL-MARKER";
const BUNDLE = "APP-BUNDLE-MARKER";
const LOGIN_SCRIPT = "LOGIN-SCRIPT-MARKER";

/** A built UI in miniature: the app shell and its bundle carry markers that must never leak. */
function fakeWebview(): string {
  const dir = makeTempDir("parley-webview-");
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(
    path.join(dir, "index.html"),
    `<!doctype html><title>${SHELL}</title><script type="module" src="./assets/app.js"></script>`,
  );
  fs.writeFileSync(path.join(dir, "assets", "app.js"), `console.log("${BUNDLE}")`);
  fs.writeFileSync(path.join(dir, "login.js"), `console.log("${LOGIN_SCRIPT}")`);
  fs.writeFileSync(path.join(dir, "favicon.svg"), `<svg xmlns="http://www.w3.org/2000/svg"/>`);
  return dir;
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request whose path goes out exactly as spelled (fetch would resolve `/./` and friends first). */
function rawRequest(
  base: string,
  rawPath: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method, headers, agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const SPELLINGS = [
  "/",
  "/index.html",
  "//index.html",
  "///index.html",
  "/%69ndex.html",
  "/%69%6E%64%65%78%2E%68%74%6D%6C",
  "/INDEX.html",
  "/Index.HTML",
  "/./index.html",
  "/.//index.html",
  "/index.html/",
  "/index.html/.",
  "/index.html?x=1",
  "//",
  "///",
  "/.",
  "/./",
  "/%2e/index.html",
  "/%2E/",
  "/%252e/index.html",
  "/%2f/index.html",
  "/%2F%2Findex.html",
  "/x/../index.html",
  "/x/%2e%2e/index.html",
  "/%2e%2e/index.html",
  "/\\index.html",
  "/%5cindex.html",
  "/index.html;",
  "/index.html%00",
  "/assets/../index.html",
  "//assets/%2e%2e/index.html",
  "/assets/..%2Findex.html",
  "/assets/..%5Cindex.html",
  "/assets/x/%2E%2E/../index.html",
  "/assets/",
  "/assets",
  "/login.js/../index.html",
  "/nothing/here/",
];

describe("attack: spellings of the app's page without a session", function () {
  this.timeout(60_000);
  let s: TestServer;
  let webviewDir: string;
  before(async () => {
    webviewDir = fakeWebview();
    s = await startTestServer({ webviewDir });
    // Before a password: the app shell is served (so the markers below would show a leak).
    assert.ok(
      (await rawRequest(s.url, "//index.html")).body.includes(SHELL),
      "the fixture serves the app without a password",
    );
    assert.equal((await s.api("POST", "/api/access/password", { next: PASSWORD })).status, 204);
  });
  after(async () => {
    await s.stop();
    removeDir(webviewDir);
  });

  /** Follows relative redirects from the spelling as a browser would, up to a few hops. */
  async function land(rawPath: string): Promise<{ answer: Answer; trail: string[] }> {
    const trail = [rawPath];
    let answer = await rawRequest(s.url, rawPath);
    for (let hop = 0; hop < 3 && answer.status >= 300 && answer.status < 400; hop++) {
      const location = answer.headers.location!;
      assert.match(location, /^\.{1,2}\//, `${trail.join(" → ")}: a redirect stays on this server, relative`);
      const next = new URL(location, `http://x${trail.at(-1)!}`).pathname;
      trail.push(next);
      answer = await rawRequest(s.url, next);
    }
    return { answer, trail };
  }

  for (const spelling of SPELLINGS) {
    it(`answers ${JSON.stringify(spelling)} with the sign-in page, never the app`, async () => {
      const first = await rawRequest(s.url, spelling);
      assert.ok(
        !first.body.includes(SHELL),
        `${spelling} answered ${first.status} with the app: ${first.body.slice(0, 200)}`,
      );
      assert.ok([200, 302, 404].includes(first.status), `${spelling}: ${first.status}`);
      const { answer, trail } = await land(spelling);
      assert.ok(!answer.body.includes(SHELL), trail.join(" → "));
      if (answer.status !== 404) {
        assert.equal(answer.status, 200, trail.join(" → "));
        assert.match(answer.body, /Sign in to Parley/, trail.join(" → "));
      }
    });
  }

  it("answers HEAD and other methods on the app's page without any of its content", async () => {
    for (const method of ["HEAD", "POST", "PUT", "DELETE"]) {
      for (const spelling of ["//index.html", "/%69ndex.html", "/assets/../index.html"]) {
        const answer = await rawRequest(s.url, spelling, {}, method);
        assert.ok(!answer.body.includes(SHELL), `${method} ${spelling}`);
        assert.ok(
          answer.status === 302 || answer.status === 401 || answer.status === 404,
          `${method} ${spelling}: ${answer.status}`,
        );
      }
    }
  });

  it("still answers 401 to every spelling of the API", async () => {
    for (const spelling of [
      "/api/projects",
      "//api/projects",
      "/./api/projects",
      "/%61pi/projects",
      "/x/../api/projects",
      "/API/projects/",
    ]) {
      const answer = await rawRequest(s.url, spelling);
      assert.equal(answer.status, 401, spelling);
      assert.equal(JSON.parse(answer.body).error.code, "unauthorized", spelling);
    }
  });

  it("still serves the UI's bundle, in any spelling, as the file that spelling resolves to", async () => {
    for (const spelling of [
      "/assets/app.js",
      "//assets/app.js",
      "/./assets/app.js",
      "/assets//app.js",
      "/%61ssets/app.js",
      "/x/../assets/app.js",
    ]) {
      const answer = await rawRequest(s.url, spelling);
      assert.equal(answer.status, 200, spelling);
      assert.ok(answer.body.includes(BUNDLE), spelling);
    }
  });

  it("still serves the sign-in page's own files, in any spelling", async () => {
    for (const spelling of ["/login.js", "//login.js", "/./login.js", "/%6cogin.js"]) {
      const answer = await rawRequest(s.url, spelling);
      assert.equal(answer.status, 200, spelling);
      assert.ok(answer.body.includes(LOGIN_SCRIPT), spelling);
    }
    for (const spelling of ["/favicon.ico", "/favicon.svg", "//favicon.svg"])
      assert.equal((await rawRequest(s.url, spelling)).status, 200, spelling);
    assert.match((await rawRequest(s.url, "/login")).body, /<script type="module" src="\.\/login\.js">/);
  });

  it("serves the app to a signed-in browser and to the token, in any spelling", async () => {
    const login = await fetch(`${s.url}/api/access/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ password: PASSWORD }),
    });
    assert.equal(login.status, 204);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    for (const spelling of ["/", "//index.html", "/%69ndex.html"])
      assert.ok((await rawRequest(s.url, spelling, { cookie })).body.includes(SHELL), spelling);
    assert.ok((await rawRequest(s.url, "//assets/app.js", { cookie })).body.includes(BUNDLE));
    assert.ok((await rawRequest(s.url, "/", { authorization: `Bearer ${s.token}` })).body.includes(SHELL));
  });
});
