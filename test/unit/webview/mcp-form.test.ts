// The MCP server form's text fields and the settings entry they stand for: line formats, what an
// edit clears (sent as null so the merge drops it), secrets left as the placeholder, issue lines.
import assert from "node:assert/strict";
import {
  emptyForm,
  entryFromForm,
  formFromEntry,
  issueLines,
  parsePairs,
  sandboxChoice,
  statusWords,
} from "../../../webview/src/lib/mcp-form";

describe("MCP server form", () => {
  it("builds a new stdio entry from the filled-in fields only, one argument a line", () => {
    const values = {
      ...emptyForm("app"),
      id: "everything",
      command: " node ",
      args: "server.js\n\n  stdio  \n",
      env: "TOKEN=abc\nMODE = fast",
    };
    assert.deepEqual(entryFromForm(values), {
      entry: {
        id: "everything",
        transport: "stdio",
        command: "node",
        args: ["server.js", "stdio"],
        env: { TOKEN: "abc", MODE: "fast" },
      },
      errors: [],
    });
  });

  it("builds an http entry with headers, and leaves out the stdio fields", () => {
    const values = {
      ...emptyForm("project"),
      id: "remote",
      transport: "http" as const,
      command: "ignored",
      url: "http://127.0.0.1:9/mcp",
      headers: "X-Api-Key: k: with colon",
    };
    assert.deepEqual(entryFromForm(values).entry, {
      id: "remote",
      transport: "http",
      url: "http://127.0.0.1:9/mcp",
      headers: { "X-Api-Key": "k: with colon" },
    });
  });

  it("refuses a line without its separator, naming the field", () => {
    assert.deepEqual(parsePairs("GOOD=1\nbad line", "=", "Environment").errors, [
      'Environment: "bad line" is not NAME=value',
    ]);
    const { entry, errors } = entryFromForm({ ...emptyForm("app"), id: "x", command: "c", env: "=nameless" });
    assert.equal(entry, undefined);
    assert.equal(errors.length, 1);
  });

  it("on an edit, keeps secrets as the placeholder and sends null for what the user cleared", () => {
    const original = {
      id: "srv",
      name: "Server",
      transport: "stdio" as const,
      command: "node",
      args: ["a"],
      cwd: "/tmp",
      env: { KEEP: "<secret>", DROP: "<secret>" },
    };
    const form = formFromEntry(original, "app");
    assert.equal(form.env, "KEEP=<secret>\nDROP=<secret>");
    assert.equal(form.args, "a");
    const { entry } = entryFromForm({ ...form, name: "", cwd: "", args: "", env: "KEEP=<secret>\nNEW=1" }, original);
    assert.deepEqual(entry, {
      id: "srv",
      name: null,
      transport: "stdio",
      command: "node",
      args: null,
      cwd: null,
      env: { KEEP: "<secret>", NEW: "1", DROP: null },
    });
  });

  it("switching an edited server to http clears its stdio fields and each env name", () => {
    const original = { id: "srv", transport: "stdio" as const, command: "node", env: { A: "<secret>" } };
    const { entry } = entryFromForm(
      { ...formFromEntry(original, "app"), transport: "http", url: "https://example.com/mcp" },
      original,
    );
    assert.deepEqual(entry, {
      id: "srv",
      transport: "http",
      command: null,
      url: "https://example.com/mcp",
      env: { A: null },
    });
  });

  it("maps a stdio server's own sandbox to one choice and back, clearing what the choice does not set", () => {
    assert.equal(sandboxChoice(undefined), "inherit");
    assert.equal(sandboxChoice({ network: "on" }), "network");
    assert.equal(sandboxChoice({ network: "off" }), "offline");
    assert.equal(sandboxChoice({ mode: "off", network: "on" }), "off");
    assert.equal(sandboxChoice({ network: ["api.example.com"] }), "custom");
    const base = { ...emptyForm("app"), id: "srv", command: "npx" };
    assert.deepEqual(entryFromForm({ ...base, sandbox: "network" }).entry!.sandbox, { mode: null, network: "on" });
    assert.deepEqual(entryFromForm({ ...base, sandbox: "off" }).entry!.sandbox, { mode: "off", network: null });
    assert.equal(entryFromForm(base).entry!.sandbox, undefined, "a new server following the settings sends nothing");
    const original = { id: "srv", transport: "stdio" as const, command: "npx", sandbox: { network: "on" as const } };
    const edited = formFromEntry(original, "app");
    assert.equal(edited.sandbox, "network");
    assert.equal(entryFromForm({ ...edited, sandbox: "inherit" }, original).entry!.sandbox, null);
    assert.equal(entryFromForm({ ...edited, transport: "http", url: "https://x/mcp" }, original).entry!.sandbox, null);
    const hosts = { ...original, sandbox: { network: ["api.example.com"] } };
    assert.equal(entryFromForm(formFromEntry(hosts, "app"), hosts).entry!.sandbox, undefined, "a host list is kept");
  });

  it("names the form's fields in a 400's zod issues", () => {
    const issues = [
      { path: ["mcpServers", 0, "id"], message: "lowercase letters, digits and -, 1 to 32 characters" },
      { path: ["mcpServers", 1], message: "a stdio server needs `command`, an http server `url`" },
      { path: ["mcpServers", 0, "env", "1X"], message: "Invalid key" },
    ];
    assert.deepEqual(issueLines(issues), [
      "Id: lowercase letters, digits and -, 1 to 32 characters",
      "a stdio server needs `command`, an http server `url`",
      "Environment (1X): Invalid key",
    ]);
    assert.deepEqual(issueLines(undefined), []);
  });

  it("says Disabled for a switched-off server, and the status in words otherwise", () => {
    assert.equal(statusWords({ status: "stopped", enabled: false }), "Disabled");
    assert.equal(statusWords({ status: "ready", enabled: true }), "Ready");
    assert.equal(statusWords({ status: "untrusted", enabled: true }), "Waiting for you to trust this project");
  });
});
