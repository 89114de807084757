// The preset tool tree: groups from the catalog, tri-state group checkboxes over the unlocked tools,
// gates `off` and master switches locked off, and the synthetic Agent files and Skills groups.
import assert from "node:assert/strict";
import type { CatalogTool, InstructionSources } from "../../../src/shared/tools";
import {
  AGENT_FILES_OFF_REASON,
  GATE_OFF_REASON,
  groupLocked,
  groupState,
  instructionChecked,
  instructionGroups,
  leafChecked,
  SKILLS_OFF_REASON,
  toggleGroup,
  toggleTool,
  toolGroups,
} from "../../../webview/src/lib/preset-tree";

const tool = (name: string, extra: Partial<CatalogTool> = {}): CatalogTool => ({
  name,
  kind: "native",
  description: `${name} tool`,
  gate: "allow",
  ...extra,
});
const catalog: CatalogTool[] = [
  tool("shell", { gate: "ask" }),
  tool("mcp__b__one", { kind: "mcp", serverId: "b", server: "b" }),
  tool("file"),
  tool("web_fetch", { gate: "off" }),
  tool("mcp__a__x", { kind: "mcp", serverId: "a", server: "a", gate: "off" }),
  tool("mcp__b__two", { kind: "mcp", serverId: "b", server: "b" }),
];

describe("preset tool tree", () => {
  const groups = toolGroups(catalog);
  const [native, serverB, serverA] = groups as [(typeof groups)[0], (typeof groups)[0], (typeof groups)[0]];

  it("puts native tools first, then MCP tools grouped by server in catalog order", () => {
    assert.deepEqual(
      groups.map((g) => [g.label, g.leaves.map((l) => l.name)]),
      [
        ["Native tools", ["shell", "file", "web_fetch"]],
        ["MCP: b", ["mcp__b__one", "mcp__b__two"]],
        ["MCP: a", ["mcp__a__x"]],
      ],
    );
    assert.equal(native.leaves[2]!.locked, GATE_OFF_REASON, "a tool gated off is locked with the reason");
    assert.equal(native.leaves[0]!.locked, undefined, "ask is not a lock");
    assert.deepEqual(toolGroups([]), [], "no empty native group");
  });

  it("computes the group state over the unlocked tools only", () => {
    assert.equal(groupState(native, []), "none");
    assert.equal(groupState(native, ["shell"]), "some");
    assert.equal(groupState(native, ["shell", "file"]), "all", "the locked web_fetch does not count");
    assert.equal(groupState(native, ["web_fetch"]), "none");
    assert.equal(groupState(serverA, ["mcp__a__x"]), "none", "a group of locked tools is never ticked");
    assert.equal(groupLocked(serverA), true);
    assert.equal(groupLocked(serverB), false);
  });

  it("ticks every unlocked tool from none or some, and unticks them from all, keeping locked ones as written", () => {
    assert.deepEqual(toggleGroup(native, []), ["shell", "file"]);
    assert.deepEqual(toggleGroup(native, ["file", "mcp__b__one"]), ["file", "mcp__b__one", "shell"]);
    assert.deepEqual(toggleGroup(native, ["shell", "file", "web_fetch", "mcp__b__one"]), ["web_fetch", "mcp__b__one"]);
    assert.deepEqual(toggleGroup(serverB, toggleGroup(serverB, ["shell"])), ["shell"], "twice is a round trip");
  });

  it("shows a locked tool unticked even when the preset lists it", () => {
    assert.equal(leafChecked(native.leaves[2]!, ["web_fetch"]), false);
    assert.equal(leafChecked(native.leaves[0]!, ["shell"]), true);
  });

  it("adds and removes one tool once", () => {
    assert.deepEqual(toggleTool("file", ["shell"], true), ["shell", "file"]);
    assert.deepEqual(toggleTool("shell", ["shell"], true), ["shell"]);
    assert.deepEqual(toggleTool("shell", ["shell", "file"], false), ["file"]);
  });

  it("builds the synthetic groups from the files that exist, locked when the master switch is off", () => {
    const sources: InstructionSources = {
      agentFiles: { enabled: true, names: ["AGENTS.md", "CLAUDE.md"], files: ["AGENTS.md"] },
      skills: {
        enabled: false,
        items: [{ name: "deploy", description: "Ship it", path: ".agents/skills/deploy/SKILL.md" }],
      },
    };
    const [agentFiles, skills] = instructionGroups(sources);
    assert.deepEqual(agentFiles!.items, [{ label: "AGENTS.md" }]);
    assert.equal(agentFiles!.locked, undefined);
    assert.deepEqual(skills!.items, [{ label: "deploy", detail: "Ship it" }]);
    assert.equal(skills!.locked, SKILLS_OFF_REASON);
    const preset = { tools: [], agentFiles: true, skills: true };
    assert.equal(instructionChecked(agentFiles!, preset), true);
    assert.equal(instructionChecked(skills!, preset), false, "the master switch locks the group off");
    const off = instructionGroups({ ...sources, agentFiles: { enabled: false, names: ["AGENTS.md"], files: [] } })[0]!;
    assert.equal(off.locked, AGENT_FILES_OFF_REASON);
    assert.match(off.empty, /AGENTS\.md/);
    assert.equal(instructionGroups(undefined)[0]!.locked, undefined, "unknown (no project): not locked");
  });
});
