import assert from "node:assert/strict";
import {
  agentFieldErrors,
  blankAgentDraft,
  draftFromAgent,
  inputFromDraft,
  offeredAgentTools,
  validateAgentDraft,
} from "../../../webview/src/lib/agent-draft";

describe("agent form draft", () => {
  it("round-trips an agent, and leaves out what is unset", () => {
    const agent = { name: "reviewer", description: "Reviews", model: "m/x", tools: ["shell"], promptId: "review" };
    assert.deepEqual(inputFromDraft(draftFromAgent(agent)), agent);
    assert.deepEqual(inputFromDraft({ ...blankAgentDraft(), name: " critic ", model: "  " }), { name: "critic" });
  });

  it("sends `tools` only for Only these tools, an empty list meaning no tool", () => {
    const draft = { ...blankAgentDraft(), name: "a", tools: ["shell"] };
    assert.equal(inputFromDraft(draft).tools, undefined, "every project tool: no key");
    assert.deepEqual(inputFromDraft({ ...draft, toolsMode: "only", tools: [] }).tools, []);
    assert.equal(draftFromAgent({ name: "a", description: "" }).toolsMode, "all");
    assert.equal(draftFromAgent({ name: "a", description: "", tools: [] }).toolsMode, "only");
  });

  it("checks the name with the server's schema before sending", () => {
    assert.equal(validateAgentDraft(blankAgentDraft()).name, "Name: give the agent a name.");
    assert.match(validateAgentDraft({ ...blankAgentDraft(), name: "a b" }).name ?? "", /^Name: agent names start with/);
    assert.deepEqual(validateAgentDraft({ ...blankAgentDraft(), name: "ok" }), {});
  });

  it("places the server's issues at their fields, the rest on the form", () => {
    assert.deepEqual(
      agentFieldErrors([
        { path: ["agent", "name"], message: "taken" },
        { path: ["agent", "tools", 2], message: 'no tool is called "x"' },
        { path: ["projectDir"], message: "required" },
      ]),
      { name: "Name: taken", tools: 'Tools: no tool is called "x"', form: ["required"] },
    );
  });

  it("offers the catalog without subagent, file:read after file, and listed tools the catalog lacks", () => {
    assert.deepEqual(offeredAgentTools(["shell", "file", "subagent", "mcp__calc__sum"], ["mcp__gone__x", "shell"]), [
      { name: "shell" },
      { name: "file" },
      { name: "file:read", note: "reading only" },
      { name: "mcp__calc__sum" },
      { name: "mcp__gone__x", note: "not in the catalog now" },
    ]);
  });
});
