// web_fetch as a native tool through the real server (contract 7.5): in the catalog and the @ popup
// with its default gate `ask`; a fake/tools call asks, runs and hands the page to the model and the
// card; the `webFetch` app setting is validated (bad values 400) and is the user's alone: a
// repository's `.app.json` cannot open loopback to it; and `@web_fetch <url>` runs from the composer.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { newChat, send, startChatFixture, type ChatFixture } from "../helpers/chat-fixture";
import { readEvents, text, type ReceivedEvent } from "../helpers/sse";
import { startWebServer, type WebServer } from "../helpers/web-server";

const PAGE =
  "<html><body><h1>Release notes</h1><p>Version <b>2</b> is out. <a href='/v2'>Details</a></p></body></html>";

describe("web_fetch through the agent loop", function () {
  this.timeout(60_000);
  let f: ChatFixture;
  let web: WebServer;
  let q: string;
  const patchApp = async (body: unknown) => {
    const res = await f.s.api("PATCH", "/api/settings/app", body);
    return { status: res.status, body: await res.json() };
  };
  const call = (url: string) => `mcp: web_fetch ${JSON.stringify({ url })}`;
  const result = (events: ReceivedEvent[]) => events.find((e) => e.event === "tool.result")!.data;

  before(async () => {
    web = await startWebServer({
      "/notes": (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE),
    });
  });
  after(() => web.close());
  beforeEach(async () => {
    f = await startChatFixture();
    web.hits.length = 0;
    q = `projectDir=${encodeURIComponent(f.s.projectDir)}`;
  });
  afterEach(() => f.stop());

  /** One fake/tools turn; approvals answered with `decision` (none: the test fails if one comes). */
  async function turn(content: string, decision?: "allow" | "deny") {
    const chat = await newChat(f, { modelId: "fake/tools" });
    const events = await readEvents(await send(f, chat.id, { content }), (e) => {
      if (e.event !== "tool.approval") return;
      assert.ok(decision, `unexpected approval for ${e.data.name}`);
      void f.s.api("POST", `/api/chats/${chat.id}/approvals/${e.data.callId}`, { decision });
    });
    return { events, chatId: chat.id };
  }

  it("is a native tool offered to the model, gated `ask` by default, in the catalog and the @ popup", async () => {
    const catalog = (await (await f.s.api("GET", `/api/tools/catalog?${q}`)).json()) as any[];
    const row = catalog.find((t) => t.name === "web_fetch");
    assert.deepEqual([row.kind, row.gate, row.parameters.required], ["native", "ask", ["url"]]);
    const mentions = (await (await f.s.api("GET", `/api/mentions/catalog?${q}`)).json()) as any;
    const item = mentions.tools.find((t: any) => t.label === "web_fetch");
    assert.equal(item.insertText, "@web_fetch:url=``");
  });

  it("asks, fetches the page once allowed, and gives the model and the card its markdown", async () => {
    assert.equal((await patchApp({ webFetch: { allowHosts: ["127.0.0.1"] } })).status, 200);
    const url = web.url("/notes");
    const { events, chatId } = await turn(call(url), "allow");
    const asked = events.find((e) => e.event === "tool.approval")!.data;
    assert.deepEqual([asked.name, asked.arguments], ["web_fetch", { url }]);
    const done = result(events);
    assert.equal(done.ok, true);
    assert.deepEqual(done.output, {
      url,
      status: 200,
      contentType: "text/html",
      bytes: Buffer.byteLength(PAGE),
      truncated: false,
      content: `# Release notes\n\nVersion **2** is out. [Details](${web.url("/v2")})`,
    });
    // The model reads the same result in the tool message of its next step.
    const toolMessage = (f.gateway.completions.at(-1)!.body as any).messages.at(-1);
    assert.equal(toolMessage.role, "tool");
    assert.equal(JSON.parse(toolMessage.content).content, done.output.content);
    assert.match(text(events), /Tool said: .*Release notes/);
    // Stored for the card after a reload.
    const stored = await (await f.s.api("GET", `/api/chats/${chatId}`)).json();
    const message = stored.messages.find((m: any) => m.role === "tool");
    assert.deepEqual([message.meta.name, message.meta.ok, JSON.parse(message.content).url], ["web_fetch", true, url]);
  });

  it("refuses loopback by default, and a repository's `.app.json` cannot allow it", async () => {
    fs.writeFileSync(
      path.join(f.s.projectDir, ".app.json"),
      JSON.stringify({ webFetch: { allowPrivate: true, allowHosts: ["127.0.0.1"] } }),
    );
    await patchApp({ toolGates: { web_fetch: "allow" } });
    const { events } = await turn(call(web.url("/notes")));
    assert.deepEqual(
      [result(events).ok, result(events).output],
      [
        false,
        `web_fetch refused ${web.url("/notes")}: 127.0.0.1 is a loopback address; web_fetch reaches such addresses only when the app setting webFetch.allowPrivate or webFetch.allowHosts allows it`,
      ],
    );
    assert.deepEqual(web.hits, []);
    const layer = await (await f.s.api("GET", `/api/settings/project?${q}`)).json();
    assert.ok(
      layer.issues.some((i: any) => i.key === "webFetch" && /app setting/.test(i.message)),
      JSON.stringify(layer.issues),
    );
  });

  it("answers bad webFetch settings with 400 and saves good ones; a project cannot set them", async () => {
    for (const webFetch of [
      { allowHosts: ["*"] },
      { allowHosts: ["*.corp.example"] },
      { allowHosts: ["http://intranet"] },
      { allowHosts: ["intranet:8080"] },
      { allowHosts: ["10.0.0.0/33"] },
      { allowHosts: [""] },
      { allowHosts: "localhost" },
      { allowPrivate: "yes" },
      { allowPrivat: true },
    ]) {
      const res = await patchApp({ webFetch });
      assert.equal(res.status, 400, JSON.stringify(webFetch));
      assert.equal(res.body.error.code, "invalid_request", JSON.stringify(res.body));
    }
    const wildcard = await patchApp({ webFetch: { allowHosts: ["*"] } });
    assert.match(JSON.stringify(wildcard.body), /set webFetch\.allowPrivate to true/);
    const good = { allowPrivate: false, allowHosts: ["localhost", "wiki.intranet", "10.0.0.0/8", "::1", "fd00::/8"] };
    const saved = await patchApp({ webFetch: good });
    assert.equal(saved.status, 200);
    assert.deepEqual(saved.body.webFetch, good);
    assert.equal((await patchApp({ webFetch: { allowHosts: null } })).body.webFetch.allowHosts, undefined);
    const project = await f.s.api("PATCH", `/api/settings/project?${q}`, { webFetch: { allowPrivate: true } });
    assert.equal(project.status, 400);
  });

  it("runs from the composer: `@web_fetch <url>` is routed to the tool and dispatched under its gate", async () => {
    await patchApp({ webFetch: { allowHosts: ["127.0.0.1"] }, toolGates: { web_fetch: "allow" } });
    const url = web.url("/notes");
    const routed = await (
      await f.s.api("POST", "/api/composer/route", { projectDir: f.s.projectDir, text: `@web_fetch ${url}` })
    ).json();
    assert.deepEqual(routed, { kind: "tool", tool: "web_fetch", arguments: { url } });
    const chat = await newChat(f, { modelId: "fake/tools" });
    const res = await f.s.api("POST", "/api/tools/dispatch", {
      projectDir: f.s.projectDir,
      chatId: chat.id,
      tool: "web_fetch",
      arguments: { url },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual([body.ok, body.output.url, body.output.status], [true, url, 200]);
    await patchApp({ toolGates: { web_fetch: "off" } });
    const off = await f.s.api("POST", "/api/tools/dispatch", {
      projectDir: f.s.projectDir,
      chatId: chat.id,
      tool: "web_fetch",
      arguments: { url },
    });
    assert.equal(off.status, 403);
  });
});
