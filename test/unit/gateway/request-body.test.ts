import assert from "node:assert/strict";
import fc from "fast-check";
import { requestBody } from "../../../src/gateway/request-body";

const requestJson = (body: Record<string, unknown>) => requestBody(body).toString("utf8");

const tool = (name: string, description: string, parameters: object) => ({
  type: "function",
  function: { name, description, parameters },
});

describe("a chat completion request's body", () => {
  it("is the value JSON.stringify gives, for any body and any tools", () => {
    const json = fc.jsonValue();
    const anyTool = fc.oneof(
      fc
        .record({ name: fc.string(), description: fc.string(), parameters: fc.dictionary(fc.string(), json) })
        .map(({ name, description, parameters }) => tool(name, description, parameters)),
      json,
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), json), fc.option(fc.array(anyTool)), (fields, tools) => {
        const body = tools === null ? fields : { ...fields, tools };
        const once = requestJson(body);
        assert.deepEqual(JSON.parse(once), JSON.parse(JSON.stringify(body)));
        // Written again from what was kept: the same text.
        assert.equal(requestJson(body), once);
      }),
      { numRuns: 500 },
    );
  });

  it("writes a definition again when its name or description changed, though its schema did not", () => {
    const schema = { type: "object", properties: { q: { type: "string" } } };
    const first = JSON.parse(requestJson({ model: "m", tools: [tool("search", "Finds", schema)] })) as {
      tools: { function: { name: string; description: string } }[];
    };
    assert.equal(first.tools[0]!.function.description, "Finds");
    const renamed = JSON.parse(
      requestJson({ model: "m", tools: [tool("lookup", "Looks up", schema)] }),
    ) as typeof first;
    assert.deepEqual(renamed.tools[0]!.function, { name: "lookup", description: "Looks up", parameters: schema });
  });

  it("keeps a tools value that is not a list as it is", () => {
    assert.equal(
      requestJson({ model: "m", tools: { odd: true } }),
      JSON.stringify({ model: "m", tools: { odd: true } }),
    );
    assert.equal(requestJson({ tools: [] }), '{"tools":[]}');
  });
});
