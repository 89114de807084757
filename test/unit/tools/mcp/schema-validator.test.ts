import assert from "node:assert/strict";
import { schemaDraft, validateArguments, withoutMetaSchema } from "../../../../src/tools/mcp/schema-validator";
import { withoutMarkup } from "../../../../src/tools/mcp/connection";

const base = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };

describe("MCP input schemas of every draft", () => {
  const drafts = {
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft-07": "http://json-schema.org/draft-07/schema#",
    "draft-06": "http://json-schema.org/draft-06/schema#",
    "draft-04": "http://json-schema.org/draft-04/schema#",
  };
  for (const [draft, uri] of Object.entries(drafts)) {
    it(`validates arguments against a ${draft} schema`, () => {
      assert.equal(schemaDraft(uri), draft);
      assert.equal(validateArguments({ $schema: uri, ...base }, { a: "x" }), undefined);
      assert.deepEqual(validateArguments({ $schema: uri, ...base }, { a: 1 }), ["/a must be string"]);
    });
  }

  it("reads each draft's own keywords: 2020-12 prefixItems, draft-04 boolean exclusiveMinimum", () => {
    const tuple = {
      $schema: drafts["2020-12"],
      type: "array",
      prefixItems: [{ type: "string" }, { type: "number" }],
    };
    assert.equal(validateArguments(tuple, ["x", 1]), undefined);
    assert.ok(validateArguments(tuple, [1, "x"]));
    const old = {
      $schema: drafts["draft-04"],
      type: "object",
      properties: { n: { type: "number", minimum: 5, exclusiveMinimum: true } },
    };
    assert.deepEqual(validateArguments(old, { n: 5 }), ["/n must be > 5"]);
    assert.equal(validateArguments(old, { n: 6 }), undefined);
  });

  it("reads a schema without $schema, or with one Ajv does not know, as draft-07", () => {
    assert.equal(validateArguments(base, { a: "x" }), undefined);
    assert.equal(validateArguments({ $schema: "https://example.com/my-meta", ...base }, { a: "x" }), undefined);
    assert.deepEqual(validateArguments({ $schema: "https://example.com/my-meta", ...base }, {}), [
      "arguments must have required property 'a'",
    ]);
  });

  it("says so, in one line, when a schema cannot compile", () => {
    const [problem] = validateArguments({ type: "no-such-type" }, {})!;
    assert.match(problem!, /^the server's input schema is invalid: /);
  });

  it("leaves $schema out of what the model is sent, and nothing else", () => {
    assert.deepEqual(withoutMetaSchema({ $schema: drafts["2020-12"], ...base }), base);
    assert.equal(withoutMetaSchema(base), base);
  });
});

describe("server error pages in a status line", () => {
  it("keeps an error page's words, not its markup", () => {
    const page =
      '<!DOCTYPE html>\n<html lang="en"><head><title>Error</title><style>p{}</style></head><body><pre>Cannot POST /mcp</pre></body></html>';
    assert.equal(
      withoutMarkup(`Streamable HTTP error: Error POSTing to endpoint: ${page}`),
      "Streamable HTTP error: Error POSTing to endpoint: Error Cannot POST /mcp",
    );
  });

  it("leaves a message without markup as it is, comparisons included", () => {
    assert.equal(withoutMarkup("a < b and c > d"), "a < b and c > d");
  });
});
