import assert from "node:assert/strict";
import { budgetTools, runToolSearch, searchTools, TOOL_SEARCH } from "../../../src/tools/tool-search";
import type { UpstreamTool } from "../../../src/tools/offered-tools";

const tool = (name: string, description = ""): UpstreamTool => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties: {} } },
});
const github = [
  tool("mcp__github__create_issue", "Open a new issue in a repository"),
  tool("mcp__github__list_issues", "List the issues of a repository"),
  tool("mcp__github__create_pull_request", "Open a pull request"),
];
const calc = [tool("mcp__calc__sum", "Add numbers"), tool("mcp__calc__product", "Multiply numbers")];
const natives = [tool("shell", "Run a command"), tool("file", "Read and write files")];

describe("tool search", () => {
  it("ranks a word in the name above one in the description, and finds an id exactly", () => {
    assert.deepEqual(
      searchTools([...github, ...calc], "create issue").map((t) => t.function.name),
      ["mcp__github__create_issue", "mcp__github__create_pull_request", "mcp__github__list_issues"],
    );
    assert.deepEqual(
      searchTools(calc, "mcp__calc__product").map((t) => t.function.name),
      ["mcp__calc__product"],
    );
    assert.deepEqual(
      searchTools(calc, "multiply").map((t) => t.function.name),
      ["mcp__calc__product"],
    );
    assert.deepEqual(searchTools(calc, "weather"), []);
  });

  it("holds MCP tools back only past the budget, and says which servers tool_search covers", () => {
    const all = [...natives, ...github, ...calc];
    assert.equal(budgetTools(all, 500, 10_000, 0.1).offered.length, all.length);
    const over = budgetTools(all, 1_500, 10_000, 0.1);
    assert.deepEqual(
      over.offered.map((t) => t.function.name),
      ["shell", "file", TOOL_SEARCH],
    );
    assert.equal(over.deferred.length, 5);
    assert.match(over.offered[2]!.function.description, /github \(3\), calc \(2\)/);
    // Nothing to hold back without MCP tools, whatever the count.
    assert.equal(budgetTools(natives, 99_999, 10_000, 0.1).offered.length, 2);
  });

  it("adds what it found to the offered tools once", () => {
    const offered = [...natives];
    const first = runToolSearch({ query: "sum" }, calc, offered);
    assert.deepEqual(
      first.found.map((t) => t.name),
      ["mcp__calc__sum"],
    );
    runToolSearch({ query: "sum" }, calc, offered);
    assert.deepEqual(
      offered.map((t) => t.function.name),
      ["shell", "file", "mcp__calc__sum"],
    );
    assert.match(runToolSearch({ query: "nothing here" }, calc, offered).note!, /no tool fits/);
  });
});
