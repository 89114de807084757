import assert from "node:assert/strict";
import { AppError } from "../../../src/platform/app-error";
import {
  addAgent,
  agentList,
  agentToolIssues,
  removeAgent,
  replaceAgent,
  storedAgent,
} from "../../../src/projects/agent-list";

const refusedWith = (status: number, message: RegExp) => (error: unknown) =>
  error instanceof AppError && error.status === status && message.test(error.message);

describe("agent list edits", () => {
  it("writes name and description always, the optional fields only when set, tools once each", () => {
    assert.deepEqual(storedAgent({ name: "a" }), { name: "a", description: "" });
    assert.deepEqual(storedAgent({ name: "a", tools: ["shell", "file", "shell"], model: "m", promptId: "p" }), {
      name: "a",
      description: "",
      model: "m",
      tools: ["shell", "file"],
      promptId: "p",
    });
    assert.deepEqual(storedAgent({ name: "a", tools: [] }).tools, [], "no tool at all is a choice, kept");
  });

  it("refuses `agents` that is not a list rather than replace it, and reads a missing one as empty", () => {
    assert.deepEqual(agentList({}), []);
    for (const agents of [{}, "x", 3, null])
      assert.throws(() => agentList({ agents }), refusedWith(409, /will not overwrite/));
  });

  it("adds at the end, refusing a name any entry (damaged too) already has, or a reserved one", () => {
    const list = [{ name: "a", tools: "damaged" }, "junk"];
    const reserved = (name: string) => name.toLowerCase() === "plan";
    assert.deepEqual(addAgent(list, { name: "b" }, reserved), [...list, { name: "b", description: "" }]);
    assert.throws(() => addAgent(list, { name: "a" }, reserved), refusedWith(409, /"a" already exists/));
    assert.throws(() => addAgent(list, { name: "plan" }, reserved), refusedWith(409, /Parley's own agents/));
    try {
      addAgent(list, { name: "a" }, reserved);
    } catch (error) {
      assert.deepEqual((error as AppError).issues, [{ path: ["agent", "name"], message: (error as Error).message }]);
    }
  });

  it("replaces the editable fields of the first agent of that name, keeping unknown keys and the others", () => {
    const list = [
      { name: "a", description: "x", model: "m", extra: 1 },
      { name: "a", description: "duplicate" },
      { name: "b" },
    ];
    const next = replaceAgent(list, "a", { name: "a", tools: ["task"] });
    assert.deepEqual(next, [{ name: "a", description: "", extra: 1, tools: ["task"] }, list[1], list[2]]);
    assert.deepEqual(list[0], { name: "a", description: "x", model: "m", extra: 1 }, "the input is not mutated");
    assert.throws(() => replaceAgent(list, "c", { name: "c" }), refusedWith(404, /no agent "c"/));
    assert.throws(() => replaceAgent(list, "a", { name: "z" }), refusedWith(400, /cannot be changed/));
  });

  it("keeps a `__proto__` key of a hand-written entry as data", () => {
    const entry = JSON.parse('{"name":"a","__proto__":{"polluted":true}}');
    const [next] = replaceAgent([entry], "a", { name: "a" }) as Record<string, unknown>[];
    assert.equal(Object.getPrototypeOf(next), Object.prototype);
    assert.deepEqual(Object.keys(next!).sort(), ["__proto__", "description", "name"]);
  });

  it("removes every entry of the name, and says when there is none", () => {
    assert.deepEqual(removeAgent([{ name: "a" }, { name: "b" }, { name: "a" }], "a"), [{ name: "b" }]);
    assert.throws(() => removeAgent([{ name: "b" }, "a"], "a"), refusedWith(404, /no agent "a"/));
  });

  it("finds tools that do not exist and subagent, passing MCP ids on their form", () => {
    const isNative = (name: string) => ["shell", "file", "subagent"].includes(name);
    assert.deepEqual(agentToolIssues(undefined, isNative), []);
    assert.deepEqual(agentToolIssues(["shell", "mcp__calc__sum", "nope", "subagent"], isNative), [
      { path: ["agent", "tools", 2], message: 'no tool is called "nope"' },
      { path: ["agent", "tools", 3], message: "an agent cannot run other agents (subagent)" },
    ]);
  });
});
