// The @ popup's MCP rows (issue 34, items 5 and 11): tools say when their server is still starting;
// ready servers' resources and prompts are rows of the same "mcp" category with friendly labels, a
// detail that says what they are, a readable token for resources, and `mcp` saying which they are;
// a search finds them and keeps that field.
import assert from "node:assert/strict";
import { mcpRows, resourceToken } from "../../../src/mentions/mcp-rows";
import { rankOthers } from "../../../src/shared/ranking/rank-mentions";
import type { McpOffer, McpToolEntry } from "../../../src/tools/mcp/manager";

const echo: McpToolEntry = {
  id: "mcp__everything__echo",
  serverId: "everything",
  tool: "echo",
  description: "Echoes back the input",
  parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};
const offer: McpOffer = {
  serverId: "everything",
  resources: [
    {
      uri: "demo://resource/static/document/architecture.md",
      name: "architecture.md",
      description: "Static document file exposed from /docs: architecture.md",
      mimeType: "text/markdown",
    },
    { uri: "demo://notes", name: "team notes", title: "Team notes", description: "What the team wrote" },
    { uri: "demo://bare", name: "bare" },
  ],
  prompts: [
    { name: "simple-prompt", title: "Simple Prompt", description: "A prompt with no arguments" },
    {
      name: "args-prompt",
      title: "Arguments Prompt",
      description: "A prompt with two arguments, one required and one optional",
      arguments: [
        { name: "city", description: "Name of the city", required: true },
        { name: "state", description: "Name of the state", required: false },
      ],
    },
    { name: "untitled" },
  ],
};

describe("the @ popup's MCP rows", () => {
  it("lists tools as before, and says starting… for those listed from the cache while their server starts", () => {
    const [ready, starting] = mcpRows([echo, { ...echo, starting: true }], []);
    assert.deepEqual(ready, {
      category: "mcp",
      label: "echo",
      detail: "everything · Echoes back the input",
      insertText: "@mcp__everything__echo:message=``",
      searchText: "everything Echoes back the input mcp__everything__echo",
      parameters: echo.parameters,
    });
    assert.equal(starting!.detail, "everything · starting… · Echoes back the input");
    assert.equal(mcpRows([{ ...echo, description: "", starting: true }], [])[0]!.detail, "everything · starting…");
  });

  it("offers resources as attachable rows: server › title or name, Resource · mime or description, a one-word token", () => {
    const rows = mcpRows([], [offer]).filter((r) => r.mcp?.kind === "resource");
    assert.deepEqual(
      rows.map((r) => [r.category, r.label, r.detail, r.insertText]),
      [
        ["mcp", "everything › architecture.md", "Resource · text/markdown", "@everything:architecture.md"],
        ["mcp", "everything › Team notes", "Resource · What the team wrote", "@everything:team-notes"],
        ["mcp", "everything › bare", "Resource", "@everything:bare"],
      ],
    );
    assert.deepEqual(rows[0]!.mcp, {
      kind: "resource",
      serverId: "everything",
      uri: "demo://resource/static/document/architecture.md",
      name: "architecture.md",
    });
    assert.equal(resourceToken("s", "a `b` @c d"), "@s:a-b-c-d");
  });

  it("offers prompts as composer entries with their arguments", () => {
    const rows = mcpRows([], [offer]).filter((r) => r.mcp?.kind === "prompt");
    assert.deepEqual(
      rows.map((r) => [r.label, r.detail]),
      [
        ["everything › Simple Prompt", "Prompt · A prompt with no arguments"],
        ["everything › Arguments Prompt", "Prompt · A prompt with two arguments, one required and one optional"],
        ["everything › untitled", "Prompt"],
      ],
    );
    assert.deepEqual(rows[0]!.mcp, { kind: "prompt", serverId: "everything", name: "simple-prompt" });
    assert.deepEqual(rows[1]!.mcp, {
      kind: "prompt",
      serverId: "everything",
      name: "args-prompt",
      arguments: [
        { name: "city", description: "Name of the city", required: true },
        { name: "state", description: "Name of the state" },
      ],
    });
    assert.equal(new Set(mcpRows([echo], [offer]).map((r) => r.insertText)).size, 7, "every row has its own key");
  });

  it("is found by a search, tools first in catalog order, with `mcp` kept on the ranked row", () => {
    const ranked = rankOthers(mcpRows([echo], [offer]), "arch");
    assert.equal(ranked[0]!.label, "everything › architecture.md");
    assert.equal(ranked[0]!.mcp?.kind, "resource");
    assert.ok(ranked[0]!.highlights.length > 0);
    assert.equal(rankOthers(mcpRows([echo], [offer]), "Arguments")[0]!.mcp?.kind, "prompt");
    assert.deepEqual(
      rankOthers(mcpRows([echo], [offer]), "", { category: "mcp" }).map((r) => r.mcp?.kind ?? "tool"),
      ["tool", "resource", "resource", "resource", "prompt", "prompt", "prompt"],
    );
  });
});
