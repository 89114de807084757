import assert from "node:assert/strict";
import fc from "fast-check";
import { normalizePreset } from "../../../src/prompts/preset";
import { effectiveChat, type ProjectGate } from "../../../src/chat/effective-chat";
import { NATIVE_TOOLS } from "../../../src/tools/native-tools";
import { readFrontMatter } from "../../../src/platform/front-matter";
import { titleFromContent } from "../../../src/prompts/prompt-service";
import { readIcon } from "../../../src/shared/prompts";

const knownMcp = (name: string) => name === "mcp__fs__read";

describe("preset normalisation", () => {
  it("de-duplicates tools, keeps known native and MCP names in order, drops the rest", () => {
    assert.deepEqual(
      normalizePreset({ tools: ["shell", "file", "shell", "bogus", "mcp__fs__read", "mcp__x__y", 5] }, knownMcp),
      { tools: ["shell", "file", "mcp__fs__read"] },
    );
  });

  it("collapses to null when no tools remain and neither toggle is given", () => {
    for (const input of [{}, { tools: [] }, { tools: ["bogus"] }, null, undefined, "x", []])
      assert.equal(normalizePreset(input), null, JSON.stringify(input));
  });

  it("keeps an explicit agentFiles:false instead of collapsing", () => {
    assert.deepEqual(normalizePreset({ tools: [], agentFiles: false }), { agentFiles: false });
    assert.deepEqual(normalizePreset({ skills: false }), { skills: false });
    assert.deepEqual(normalizePreset({ agentFiles: true, skills: false, tools: ["task"] }), {
      tools: ["task"],
      agentFiles: true,
      skills: false,
    });
  });

  it("is idempotent (property)", () => {
    const names = fc.constantFrom(...NATIVE_TOOLS.map((t) => t.name), "mcp__fs__read", "mcp__other__x", "junk", "");
    const preset = fc.record(
      {
        tools: fc.option(fc.array(names), { nil: undefined }),
        agentFiles: fc.option(fc.boolean(), { nil: undefined }),
        skills: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(preset, (input) => {
        const once = normalizePreset(input, knownMcp);
        assert.deepEqual(normalizePreset(once, knownMcp), once);
      }),
    );
  });
});

describe("effective chat", () => {
  const all = ["shell", "file", "task", "mcp__fs__read"];
  const gate = (over: Partial<ProjectGate> = {}): ProjectGate => ({
    gates: {},
    agentFiles: true,
    skills: true,
    ...over,
  });

  it("unions preset tools onto the chat allowlist", () => {
    const e = effectiveChat({ tools: ["file"], agentFiles: null, skills: null }, { tools: ["shell"] }, gate(), all);
    assert.deepEqual(e.allowlist, ["file", "shell"]);
    assert.deepEqual(e.tools, ["file", "shell"]);
  });

  it("keeps a chat without allowlist inheriting every project tool", () => {
    const e = effectiveChat({ tools: null, agentFiles: null, skills: null }, { tools: ["shell"] }, gate(), all);
    assert.equal(e.allowlist, null);
    assert.deepEqual(e.tools, all);
  });

  it("lets the preset's toggles replace the chat's, and switch skills on", () => {
    const e = effectiveChat(
      { tools: null, agentFiles: true, skills: false },
      { agentFiles: false, skills: true },
      gate(),
      all,
    );
    assert.equal(e.agentFiles, false);
    assert.equal(e.skills, true);
  });

  it("keeps an off tool off even when the preset lists it, and master switches lock groups off", () => {
    const e = effectiveChat(
      { tools: [], agentFiles: true, skills: true },
      { tools: ["shell", "file"], agentFiles: true, skills: true },
      gate({ gates: { shell: "off" }, agentFiles: false, skills: false }),
      all,
    );
    assert.deepEqual(e.tools, ["file"]);
    assert.equal(e.agentFiles, false);
    assert.equal(e.skills, false);
  });

  const toolName = fc.constantFrom(...all);
  const toggles = fc.option(fc.boolean(), { nil: null });
  const chatArb = fc.record({
    tools: fc.option(fc.uniqueArray(toolName), { nil: null }),
    agentFiles: toggles,
    skills: toggles,
  });
  const presetArb = fc.option(
    fc.record(
      {
        tools: fc.option(fc.uniqueArray(toolName), { nil: undefined }),
        agentFiles: fc.option(fc.boolean(), { nil: undefined }),
        skills: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
    { nil: null },
  );
  const gateArb = fc.record({
    gates: fc.dictionary(toolName, fc.constantFrom("off" as const, "ask" as const, "allow" as const)),
    agentFiles: fc.boolean(),
    skills: fc.boolean(),
  });

  it("never narrows the chat's allowlist (property)", () => {
    fc.assert(
      fc.property(chatArb, presetArb, gateArb, (chat, preset, g) => {
        const e = effectiveChat(chat, preset, g, all);
        const base = chat.tools ?? all;
        for (const tool of base) if (g.gates[tool] !== "off") assert.ok(e.tools.includes(tool), `${tool} was dropped`);
        if (chat.tools === null) assert.equal(e.allowlist, null);
      }),
    );
  });

  it("never enables a tool or group the project gate turned off (property)", () => {
    fc.assert(
      fc.property(chatArb, presetArb, gateArb, (chat, preset, g) => {
        const e = effectiveChat(chat, preset, g, all);
        for (const tool of e.tools) assert.notEqual(g.gates[tool], "off");
        if (!g.agentFiles) assert.equal(e.agentFiles, false);
        if (!g.skills) assert.equal(e.skills, false);
      }),
    );
  });
});

describe("prompt details", () => {
  it("falls back to sparkles for unknown icons", () => {
    assert.equal(readIcon("bug"), "bug");
    assert.equal(readIcon("rocket"), "sparkles");
    assert.equal(readIcon(undefined), "sparkles");
  });

  it("names an untitled prompt after its first non-empty line", () => {
    assert.equal(titleFromContent("\n  Review code carefully.\nMore"), "Review code carefully.");
    assert.equal(titleFromContent("   "), "Untitled prompt");
  });

  it("reads SKILL.md front matter and survives broken YAML", () => {
    assert.deepEqual(readFrontMatter("---\nname: deploy\ndescription: Ship it: safely\n---\nBody").data, {
      name: "deploy",
      description: "Ship it: safely",
    });
    assert.deepEqual(readFrontMatter("---\n: : [\n---\nBody").data, {});
    assert.deepEqual(readFrontMatter("no front matter").data, {});
  });
});
