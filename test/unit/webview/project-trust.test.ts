import assert from "node:assert/strict";
import type { TrustState } from "../../../src/shared/projects";
import type { CatalogTool } from "../../../src/shared/tools";
import { gateGroups, projectGate } from "../../../webview/src/lib/gate-table";
import {
  allowNeedsTrust,
  alwaysAllowMode,
  changeText,
  codeParts,
  trustGroups,
  trustHeadline,
  waitingServers,
} from "../../../webview/src/lib/project-trust";

const covers: TrustState["covers"] = [
  { kind: "mcpServer", id: "repo", summary: "connects to http://127.0.0.1:9/mcp" },
  { kind: "gate", id: "shell", summary: "shell: allow" },
  { kind: "action", id: "deploy", summary: "Deploy: runs `echo hi`" },
  { kind: "mcpServer", id: "local", summary: "runs `node server.js --stdio`" },
];
const state = (over: Partial<TrustState> = {}): TrustState => ({
  trusted: false,
  restricted: false,
  lapsed: false,
  covers,
  changes: [],
  ...over,
});

describe("UI project trust: the This project section", () => {
  it("says the state in words: Restricted Mode first, then nothing to trust, lapsed, trusted, not trusted", () => {
    assert.equal(trustHeadline(state({ restricted: true, lapsed: true })).label, "VS Code Restricted Mode");
    assert.match(trustHeadline(state({ restricted: true })).detail, /Manage Workspace Trust/);
    assert.equal(trustHeadline(state({ trusted: true, covers: [] })).label, "Nothing needs trust");
    assert.equal(trustHeadline(state({ lapsed: true })).label, "Trust lapsed: the repository changed what you trusted");
    assert.equal(trustHeadline(state({ trusted: true })).label, "Trusted");
    assert.equal(trustHeadline(state({ trusted: true })).tone, "ok");
    assert.equal(trustHeadline(state()).label, "Not trusted");
    assert.equal(trustHeadline(state()).tone, "warning");
  });

  it("groups what trust covers: gates it loosens, then actions, then MCP servers, empty groups left out", () => {
    assert.deepEqual(
      trustGroups(covers).map((g) => [g.label, g.items.map((i) => i.id)]),
      [
        ["Tool gates it loosens", ["shell"]],
        ["Actions", ["deploy"]],
        ["MCP servers", ["repo", "local"]],
      ],
    );
    assert.deepEqual(
      trustGroups(covers.filter((c) => c.kind === "action")).map((g) => g.kind),
      ["action"],
    );
    assert.deepEqual(trustGroups([]), []);
  });

  it("names each change since the trust was given, with what the entry does now", () => {
    assert.deepEqual(
      changeText({ kind: "action", id: "lint", change: "added", summary: "Lint: runs `npm run lint`" }),
      { title: "Added action lint", summary: "Lint: runs `npm run lint`" },
    );
    assert.deepEqual(
      changeText({ kind: "mcpServer", id: "repo", change: "changed", summary: "connects to https://x" }).title,
      "Changed MCP server repo",
    );
    assert.deepEqual(changeText({ kind: "gate", id: "file", change: "removed" }), { title: "Removed tool gate file" });
  });

  it("shows a command, whole, and an http server's URL as code", () => {
    assert.deepEqual(codeParts("Deploy: runs `echo hi`"), [
      { text: "Deploy: runs ", code: false },
      { text: "echo hi", code: true },
    ]);
    assert.deepEqual(
      codeParts("runs `echo `date``"),
      [
        { text: "runs ", code: false },
        { text: "echo `date`", code: true },
      ],
      "backticks inside the command stay in it",
    );
    assert.deepEqual(codeParts("connects to http://127.0.0.1:9/mcp"), [
      { text: "connects to ", code: false },
      { text: "http://127.0.0.1:9/mcp", code: true },
    ]);
    assert.deepEqual(codeParts("shell: allow"), [{ text: "shell: allow", code: false }]);
    assert.deepEqual(
      codeParts('calls shell with {"cmd":"a`b"}'),
      [{ text: 'calls shell with {"cmd":"a`b"}', code: false }],
      "a lone backtick is text",
    );
  });
});

describe("UI project trust: allowing for good", () => {
  it("asks to trust first for an allow in a project the user has not trusted, not for off or ask, nor before the state is read", () => {
    assert.equal(allowNeedsTrust(state(), "allow"), true);
    assert.equal(allowNeedsTrust(state({ restricted: true }), "allow"), true, "and then says why it cannot");
    assert.equal(allowNeedsTrust(state(), "ask"), false);
    assert.equal(allowNeedsTrust(state(), "off"), false);
    assert.equal(allowNeedsTrust(state({ trusted: true }), "allow"), false);
    assert.equal(allowNeedsTrust(undefined, "allow"), false, "the server still decides");
  });

  it("turns Always allow into Trust and allow in an untrusted project, and offers neither under Restricted Mode", () => {
    assert.equal(alwaysAllowMode(state({ trusted: true })), "remember");
    assert.equal(alwaysAllowMode(undefined), "remember");
    assert.equal(alwaysAllowMode(state()), "trust");
    assert.equal(alwaysAllowMode(state({ lapsed: true })), "trust");
    assert.equal(alwaysAllowMode(state({ restricted: true })), "none");
  });

  it("lists the project's MCP servers that wait for trust (stdio and http alike), none once trusted", () => {
    assert.deepEqual(
      waitingServers(state()).map((s) => s.id),
      ["repo", "local"],
    );
    assert.deepEqual(waitingServers(state({ trusted: true })), []);
    assert.deepEqual(waitingServers(undefined), []);
  });
});

describe("UI project trust: the gate table", () => {
  const tool = (name: string, gate: "off" | "ask" | "allow"): CatalogTool => ({
    name,
    kind: "native",
    description: "",
    gate,
  });

  it("marks a project allow that counts as the stricter gate in force until the project is trusted", () => {
    const catalog = [tool("shell", "ask"), tool("file", "ask"), tool("task", "allow")];
    const layer = { toolGates: { shell: "allow", task: "allow" }, tools: { file: "off" } };
    const held = (trusted: boolean | undefined) =>
      gateGroups(catalog, undefined, { layer, trusted }).flatMap((g) =>
        g.rows.filter((r) => r.heldAllow).map((r) => r.name),
      );
    assert.deepEqual(held(false), ["shell"], "task's allow counts already (the user's own gate allows it)");
    assert.deepEqual(held(true), [], "the catalog's gate is then the project's");
    assert.deepEqual(held(undefined), [], "nothing said before the trust is read");
    assert.deepEqual(
      gateGroups(catalog, undefined).flatMap((g) => g.rows.map((r) => r.heldAllow)),
      [false, false, false],
    );
  });

  it("reads the project's own gate from toolGates over its older name tools", () => {
    assert.equal(projectGate({ toolGates: { shell: "ask" }, tools: { shell: "allow" } }, "shell"), "ask");
    assert.equal(projectGate({ tools: { shell: "allow" } }, "shell"), "allow");
    assert.equal(projectGate({ toolGates: {} }, "constructor"), undefined);
    assert.equal(projectGate(undefined, "shell"), undefined);
  });
});
