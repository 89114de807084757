// Parley in VS Code's Restricted Mode (contract 7.1), in a real VS Code (code-server) driven through a
// real Chromium: a cloned repository whose `.app.json` loosens the shell gate, brings an action and a
// stdio MCP server, and whose `.vscode/settings.json` moves Parley's home into the repository. The user
// trusted the project in an earlier session (`parley serve` on the same home), and still nothing of the
// repository's runs while the workspace is untrusted. Then the user trusts the workspace in the workbench
// (Manage Workspace Trust → Trust) and, without a reload, the project's own entries take effect.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Frame, Page } from "playwright-core";
import { chromiumAvailable, screenshot } from "../helpers/browser";
import { startCli } from "../helpers/cli-process";
import {
  codeServerInstalled,
  openWorkbench,
  packageVsix,
  runCommand,
  startEditor,
  webviewFrame,
  type Editor,
} from "../helpers/code-server";
import { until } from "../helpers/poll";
import { readEvents, text } from "../helpers/sse";

const REPOSITORY = {
  toolGates: { shell: "allow" },
  actions: [{ id: "hello", label: "Hello", run: { shell: "touch pwned.txt" } }],
  mcpServers: [{ id: "repo", transport: "stdio", command: "sh", args: ["-c", "touch mcp-started; sleep 60"] }],
};

type Bootstrap = { serverUrl: string; token: string; projectId: string };
type TrustState = { trusted: boolean; restricted: boolean; lapsed: boolean; covers: { kind: string; id: string }[] };

describe("Parley in VS Code's Restricted Mode (code-server)", function () {
  this.timeout(240_000);
  let editor: Editor;
  let browser: Browser;
  let page: Page;
  let panel: Frame;
  /** The panel's own bootstrap: the extension's server and its token. */
  let server: Bootstrap;
  let chatId: string;

  const inWorkspace = (name: string) => path.join(editor.workspace, name);
  const repoHome = () => inWorkspace("repo-home");
  const api = (method: string, route: string, body?: unknown) =>
    fetch(`${server.serverUrl}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${server.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ok = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await api(method, route, body);
    assert.ok(res.ok, `${method} ${route}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()) as T;
  };
  const query = () => `projectDir=${encodeURIComponent(editor.workspace)}`;
  const trustState = () => ok<TrustState>("GET", `/api/projects/${server.projectId}/trust`);
  const shellGate = async () =>
    (await ok<{ name: string; gate: string }[]>("GET", `/api/tools/catalog?${query()}`)).find((t) => t.name === "shell")
      ?.gate;
  const repoServer = async () =>
    (await ok<{ id: string; status: string }[]>("GET", `/api/mcp/servers?${query()}`)).find((s) => s.id === "repo");
  const runAction = () => api("POST", "/api/actions/hello/run", { projectDir: editor.workspace, chatId });

  before(async function () {
    if (!chromiumAvailable() || !codeServerInstalled()) {
      console.warn(
        "    code-server or Chromium is missing (bash scripts/setup-code-server.sh; apt-get install chromium): VS Code tests skipped",
      );
      this.skip();
    }
    editor = await startEditor(packageVsix(), { workspaceTrust: true });
    fs.writeFileSync(inWorkspace(".app.json"), JSON.stringify(REPOSITORY, null, 2));
    // An earlier session on the same home: the user trusted the project in `parley serve`, where its MCP
    // server started at once. Its marker goes, so that any later one comes from VS Code's extension host.
    const cli = await startCli(["serve", "--project", editor.workspace, "--home", editor.home, "--port", "0"]);
    try {
      const trusted = await fetch(`${cli.ready.url}/api/projects/${cli.ready.projects[0]!.id}/trust`, {
        method: "POST",
        headers: { authorization: `Bearer ${cli.ready.token}`, "content-type": "application/json" },
        body: JSON.stringify({ trusted: true }),
      });
      assert.equal(trusted.status, 200);
      await until(
        () => fs.existsSync(inWorkspace("mcp-started")),
        Boolean,
        "the trusted project's MCP server starts in parley serve",
        20_000,
      );
    } finally {
      cli.child.kill("SIGTERM");
      await cli.exited;
    }
    fs.rmSync(inWorkspace("mcp-started"));
    // The repository also tries to move Parley's home (and with it the app settings) into a folder it brings.
    fs.mkdirSync(inWorkspace(".vscode"));
    fs.writeFileSync(inWorkspace(".vscode/settings.json"), JSON.stringify({ "parley.home": repoHome() }));

    ({ browser, page } = await openWorkbench(editor));
  });

  after(async () => {
    await browser?.close();
    await editor?.stop();
  });

  it("activates in Restricted Mode: the Parley panel renders the workspace, on the user's own home", async () => {
    await page.locator(".statusbar", { hasText: "Restricted Mode" }).waitFor({ timeout: 60_000 });
    await page.locator('.activitybar [aria-label="Parley"]').first().click({ timeout: 60_000 });
    panel = await webviewFrame(page);
    await panel.getByRole("heading", { name: "Chats" }).waitFor();
    await panel.locator(".project-name", { hasText: "workspace" }).waitFor({ timeout: 15_000 });
    server = await panel.evaluate(
      () => JSON.parse(document.getElementById("parley-bootstrap")!.textContent!) as Bootstrap,
    );
    assert.match(server.serverUrl, /^http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(server.projectId, "the workspace folder is the panel's project");
    // `parley.home` is a restricted configuration: the workspace's value waits for trust (that the server
    // runs on the user's home shows once the workspace is trusted: the earlier session's trust is there).
    assert.equal(fs.existsSync(path.join(repoHome(), "store.sqlite")), false, "no database in the repository's home");
    await screenshot(page, "vscode-restricted-01-panel");
  });

  it("counts the project as untrusted, although the user trusted it before, and refuses to trust it (409)", async () => {
    const state = await trustState();
    assert.equal(state.restricted, true);
    assert.equal(state.trusted, false);
    assert.equal(state.lapsed, false, "the stored trust still covers the entries; Restricted Mode holds it back");
    assert.deepEqual(state.covers.map((c) => `${c.kind}:${c.id}`).sort(), [
      "action:hello",
      "gate:shell",
      "mcpServer:repo",
    ]);
    const refused = await api("POST", `/api/projects/${server.projectId}/trust`, { trusted: true });
    assert.equal(refused.status, 409);
    assert.match((await refused.json()).error.message, /Restricted Mode/);
    // The panel asks for the project's trust and says why it cannot be given yet.
    const question = panel.getByRole("region", { name: "Trust this project" });
    await question.getByText("VS Code's Restricted Mode is on for this workspace").waitFor();
    await question.locator("vscode-button[disabled]", { hasText: "Trust this project" }).waitFor();
  });

  it("keeps the repository's `shell: allow` gate at ask", async () => {
    assert.equal(await shellGate(), "ask");
  });

  it("chats, but never starts the repository's MCP server though the turn needs it", async () => {
    await ok("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: "sk-fake-restricted-key" }] });
    const chat = await api("POST", `/api/projects/${server.projectId}/chats`, { modelId: "fake/echo" });
    assert.equal(chat.status, 201);
    chatId = ((await chat.json()) as { id: string }).id;
    const answer = await api("POST", `/api/chats/${chatId}/messages/stream`, { content: "hello from restricted mode" });
    assert.equal(answer.status, 200);
    assert.equal(text(await readEvents(answer)), "You said: hello from restricted mode");
    assert.equal((await repoServer())?.status, "untrusted");
    assert.equal(fs.existsSync(inWorkspace("mcp-started")), false, "no MCP process started");
  });

  it("refuses the repository's action (403) and its command never runs", async () => {
    const refused = await runAction();
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error.code, "forbidden");
    assert.equal(fs.existsSync(inWorkspace("pwned.txt")), false);
  });

  it("follows Manage Workspace Trust → Trust without a reload: trust, gate, MCP server and action", async () => {
    // Everything above took seconds: a process the turn or the action had started would have left its marker.
    assert.equal(fs.existsSync(inWorkspace("mcp-started")), false);
    assert.equal(fs.existsSync(inWorkspace("pwned.txt")), false);
    const stream = await api("GET", "/api/events");
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let events = "";
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return;
        events += decoder.decode(value, { stream: true });
      }
    })();
    try {
      await until(
        () => events,
        (text) => text.includes("event: ready"),
        "the app event stream opens",
      );

      await runCommand(page, "Workspaces: Manage Workspace Trust");
      await page.getByRole("button", { name: "Trust", exact: true }).click();
      await page.locator(".statusbar", { hasText: "Restricted Mode" }).waitFor({ state: "detached" });
      await screenshot(page, "vscode-restricted-02-trusted");

      await until(trustState, (state) => !state.restricted, "the server sees the workspace trusted", 30_000);
      await until(
        () => events,
        (text) => text.includes(`event: settings.changed\ndata: {"scope":"app"}`),
        "open UIs are told to reload",
      );
      assert.ok(
        events.includes(`event: settings.changed\ndata: {"scope":"project","projectId":"${server.projectId}"}`),
      );
      const { trusted, restricted, lapsed } = await trustState();
      assert.deepEqual(
        { trusted, restricted, lapsed },
        { trusted: true, restricted: false, lapsed: false },
        "the earlier session's trust counts again",
      );
      assert.equal(await shellGate(), "allow");
      // The open panel follows without a reload: the project's trust is back, so its question goes.
      await panel.getByRole("region", { name: "Trust this project" }).waitFor({ state: "detached" });
      // Nothing asked for the server again: the grant alone re-checked the project whose servers the turn needed.
      await until(() => fs.existsSync(inWorkspace("mcp-started")), Boolean, "the project's MCP server starts", 20_000);
      assert.notEqual((await repoServer())?.status, "untrusted");
      // Trusting the project is no longer refused, and its action runs.
      assert.equal((await api("POST", `/api/projects/${server.projectId}/trust`, { trusted: true })).status, 200);
      const ran = await runAction();
      assert.equal(ran.status, 200, await ran.clone().text());
      await until(() => fs.existsSync(inWorkspace("pwned.txt")), Boolean, "the action's command runs");
    } finally {
      await reader.cancel().catch(() => undefined);
      await reading;
    }
  });
});
