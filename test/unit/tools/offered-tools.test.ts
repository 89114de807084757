import assert from "node:assert/strict";
import { nativeTool } from "../../../src/tools/native-tools";
import { offeredTools } from "../../../src/tools/offered-tools";

const names = (tools: ReturnType<typeof offeredTools>) => tools.map((t) => t.function.name);

describe("the tools offered upstream", () => {
  it("offers native tools as OpenAI function tools with their description and JSON Schema, in the order given", () => {
    const tools = offeredTools(["file", "shell"], {});
    assert.deepEqual(names(tools), ["file", "shell"]);
    assert.deepEqual(tools[1], {
      type: "function",
      function: {
        name: "shell",
        description: nativeTool("shell")!.description,
        parameters: nativeTool("shell")!.parameters,
      },
    });
  });

  it("leaves out tools whose gate is off, and names nothing it does not know", () => {
    assert.deepEqual(
      names(
        offeredTools(["shell", "file", "task", "no_such_tool", "mcp__gone__x"], {
          shell: "off",
          file: "ask",
          task: "allow",
        }),
      ),
      ["file", "task"],
    );
  });

  it("offers subagent only where a subagent can run (not inside one)", () => {
    assert.deepEqual(names(offeredTools(["subagent", "task"], {})), ["task"]);
    assert.deepEqual(names(offeredTools(["subagent", "task"], {}, [], true)), ["subagent", "task"]);
    assert.deepEqual(names(offeredTools(["subagent"], { subagent: "off" }, [], true)), []);
  });

  it("offers an MCP tool with its server's schema, an empty object schema when it gave none, and a description cut at 1024", () => {
    const schema = { type: "object", properties: { a: { type: "number" } }, required: ["a"] };
    const mcp = [
      { id: "mcp__calc__add", description: "Adds", parameters: schema },
      { id: "mcp__calc__bare", description: "x".repeat(2000) },
      { id: "mcp__calc__odd", description: "Odd", parameters: "not a schema" },
      { id: "mcp__calc__off", description: "Off" },
    ];
    const tools = offeredTools(
      ["mcp__calc__add", "mcp__calc__bare", "mcp__calc__odd", "mcp__calc__off"],
      { mcp__calc__off: "off" },
      mcp,
    );
    assert.deepEqual(names(tools), ["mcp__calc__add", "mcp__calc__bare", "mcp__calc__odd"]);
    assert.deepEqual(tools[0]!.function, { name: "mcp__calc__add", description: "Adds", parameters: schema });
    assert.equal(tools[1]!.function.description.length, 1024);
    assert.deepEqual(tools[1]!.function.parameters, { type: "object", properties: {} });
    assert.deepEqual(tools[2]!.function.parameters, { type: "object", properties: {} });
  });
});
