import assert from "node:assert/strict";
import { assetsFromManifest, webviewHtml } from "../../../src/host/webview-html";

const page = (token = "tok") => ({
  assets: { script: "assets/index-abc.js", styles: ["assets/index-abc.css"] },
  cspSource: "https://*.vscode-cdn.net",
  serverOrigin: "http://127.0.0.1:4317",
  bootstrap: { serverUrl: "http://127.0.0.1:4317", token, projectId: "p_1" },
});
const asUri = (rel: string) => `https://file+.vscode-resource.vscode-cdn.net/ext/media/webview/${rel}`;

describe("webview html", () => {
  it("allows only nonce'd scripts and the server's origin for network", () => {
    const html = webviewHtml(page(), asUri);
    const csp = /content="([^"]+)"/.exec(html)![1]!;
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)![1]!;
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /connect-src http:\/\/127\.0\.0\.1:4317(;|$)/);
    assert.ok(!csp.includes("unsafe-eval"));
    assert.match(csp, /worker-src blob:(;|$)/, "workers only from the UI's own Blob URLs");
    for (const tag of html.match(/<script[^>]*>/g)!) assert.ok(tag.includes(`nonce="${nonce}"`), tag);
    assert.notEqual(nonce, /script-src 'nonce-([^']+)'/.exec(webviewHtml(page(), asUri))![1], "a fresh nonce per load");
  });

  it("loads the hashed bundle through webview URIs and carries the bootstrap", () => {
    const html = webviewHtml(page(), asUri);
    assert.ok(html.includes(`src="${asUri("assets/index-abc.js")}"`));
    assert.ok(html.includes(`href="${asUri("assets/index-abc.css")}"`));
    const bootstrap = JSON.parse(/<script id="parley-bootstrap"[^>]*>([^<]*)<\/script>/.exec(html)![1]!);
    assert.deepEqual(bootstrap, page().bootstrap);
  });

  it("cannot be broken out of by the bootstrap's content", () => {
    const html = webviewHtml(page("</script><script>alert(1)</script>"), asUri);
    assert.equal(html.match(/<script/g)!.length, 2);
  });

  it("finds the entry in Vite's manifest", () => {
    assert.deepEqual(
      assetsFromManifest({
        "index.html": { file: "assets/a.js", css: ["assets/a.css"], isEntry: true },
        x: { file: "assets/x.js" },
      }),
      {
        script: "assets/a.js",
        styles: ["assets/a.css"],
      },
    );
    assert.throws(() => assetsFromManifest({}), /no entry/);
  });
});
