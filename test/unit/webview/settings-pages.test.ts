import assert from "node:assert/strict";
import type { Provenance } from "../../../src/shared/settings";
import type { CatalogTool } from "../../../src/shared/tools";
import { readMaxSteps, readMaxTurnCost } from "../../../webview/src/lib/chat-limits";
import { gateGroups, gateLayer, resetGatePatch, setGatePatch } from "../../../webview/src/lib/gate-table";
import { canReset, layerOf, provenanceText, readList } from "../../../webview/src/lib/provenance";

const provenance: Provenance = {
  name: "project",
  tags: "app",
  chat: { maxSteps: "app", defaultPromptStyle: "default" },
  toolGates: { shell: "project" },
  tools: { file: "app", shell: "app" },
};

describe("UI settings pages: provenance", () => {
  it("finds the layer of a value, nested or not, and the built-in default where no layer sets it", () => {
    assert.equal(layerOf(provenance, ["name"]), "project");
    assert.equal(layerOf(provenance, ["chat", "maxSteps"]), "app");
    assert.equal(layerOf(provenance, ["chat", "maxTurnCost"]), "default");
    assert.equal(layerOf(provenance, ["agentFiles"]), "default");
    assert.equal(layerOf(provenance, ["toString"]), "default", "never a key of Object.prototype");
    assert.equal(layerOf(undefined, ["name"]), "default");
  });

  it("answers an object node with its highest layer, and a value under a leaf with that leaf", () => {
    assert.equal(layerOf(provenance, ["chat"]), "app");
    assert.equal(layerOf(provenance, ["tags", "0"]), "app");
  });

  it("says where a value comes from as seen from each page, and offers a reset only on its own layer", () => {
    assert.equal(provenanceText("project", "project"), "Set in this project");
    assert.equal(provenanceText("app", "project"), "Inherited from app defaults");
    assert.equal(provenanceText("default", "project"), "Built-in default");
    assert.equal(provenanceText("app", "app"), "Set in app defaults");
    assert.equal(provenanceText("default", "app"), "Built-in default");
    assert.equal(canReset("project", "project"), true);
    assert.equal(canReset("app", "project"), false);
    assert.equal(canReset("app", "app"), true);
    assert.equal(canReset("default", "app"), false);
  });

  it("reads a typed list: commas or lines, trimmed, no empties or repeats", () => {
    assert.deepEqual(readList(" a, b ,,a\nCLAUDE.md \n"), ["a", "b", "CLAUDE.md"]);
    assert.deepEqual(readList("  "), []);
  });
});

describe("UI settings pages: the gate table", () => {
  const tool = (name: string, kind: "native" | "mcp", gate: "off" | "ask" | "allow", server?: string): CatalogTool => ({
    name,
    kind,
    description: `${name} does things`,
    gate,
    ...(server ? { serverId: server, server } : {}),
  });

  it("groups native tools first, then each MCP server in catalog order, with each gate's layer", () => {
    const groups = gateGroups(
      [
        tool("mcp__b__x", "mcp", "ask", "b"),
        tool("shell", "native", "off"),
        tool("mcp__a__y", "mcp", "allow", "a"),
        tool("file", "native", "ask"),
        tool("mcp__b__z", "mcp", "ask", "b"),
      ],
      provenance,
    );
    assert.deepEqual(
      groups.map((g) => [g.label, g.rows.map((r) => `${r.name}:${r.gate}:${r.layer}`)]),
      [
        ["Native tools", ["shell:off:project", "file:ask:app"]],
        ["MCP: b", ["mcp__b__x:ask:default", "mcp__b__z:ask:default"]],
        ["MCP: a", ["mcp__a__y:allow:default"]],
      ],
    );
  });

  it("says whether shell runs sandboxed, and why not, only for the tools the catalog marks", () => {
    const [native] = gateGroups(
      [
        { ...tool("shell", "native", "ask"), sandboxed: false, sandboxReason: "bubblewrap is not installed" },
        tool("file", "native", "ask"),
      ],
      provenance,
    );
    assert.deepEqual(
      native!.rows.map((row) => row.sandbox),
      [{ sandboxed: false, reason: "bubblewrap is not installed" }, undefined],
    );
    const [sandboxed] = gateGroups([{ ...tool("shell", "native", "allow"), sandboxed: true }], provenance);
    assert.deepEqual(sandboxed!.rows[0]!.sandbox, { sandboxed: true });
  });

  it("takes a gate's layer from toolGates when it holds the tool, else from the older tools key", () => {
    assert.equal(gateLayer(provenance, "shell"), "project", "toolGates wins over tools, as the server reads them");
    assert.equal(gateLayer(provenance, "file"), "app");
    assert.equal(gateLayer(provenance, "task"), "default");
    assert.equal(gateLayer({}, "constructor"), "default");
  });

  it("sets a gate in toolGates and resets it under every name the project layer holds it by", () => {
    assert.deepEqual(setGatePatch("task", "off"), { toolGates: { task: "off" } });
    assert.deepEqual(resetGatePatch("shell", { toolGates: { shell: "off" }, tools: { shell: "ask" } }), {
      toolGates: { shell: null },
      tools: { shell: null },
    });
    assert.deepEqual(
      resetGatePatch("shell", { toolGates: { shell: "off" } }),
      { toolGates: { shell: null } },
      "no empty tools object written",
    );
    assert.deepEqual(resetGatePatch("shell", undefined), {});
  });
});

describe("UI settings pages: turn limits", () => {
  it("reads steps as a whole number from 1 to 1000, empty for the default", () => {
    assert.deepEqual(readMaxSteps(" 12 "), { ok: true, value: 12 });
    assert.deepEqual(readMaxSteps(""), { ok: true, value: null });
    for (const bad of ["0", "1001", "2.5", "-3", "ten", "1e2"]) assert.equal(readMaxSteps(bad).ok, false, bad);
  });

  it("reads a budget in dollars above 0, empty for none", () => {
    assert.deepEqual(readMaxTurnCost("$0.25"), { ok: true, value: 0.25 });
    assert.deepEqual(readMaxTurnCost(".5"), { ok: true, value: 0.5 });
    assert.deepEqual(readMaxTurnCost("  "), { ok: true, value: null });
    for (const bad of ["0", "-1", "10001", "cheap", "1,5", "Infinity"])
      assert.equal(readMaxTurnCost(bad).ok, false, bad);
  });
});
