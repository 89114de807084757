import assert from "node:assert/strict";
import { plainTitle } from "../../../src/chat/chat-title";

describe("chat titles", () => {
  for (const [input, expected] of [
    ["**markdown** title", "markdown title"],
    ["# Heading\nand more", "Heading and more"],
    ["use `npm test` and _see_", "use npm test and see"],
    ["[a link](https://example.com) here", "a link here"],
    ["![logo](x.png) said", "logo said"],
    ["> quoted\n- item", "quoted item"],
    ["```ts\nconst a = 1;\n```", "const a = 1;"],
    ["snake_case_name stays", "snake_case_name stays"],
    ["2 * 3 * 4", "2 * 3 * 4"],
    ["   ", undefined],
  ] as [string, string | undefined][]) {
    it(`titles ${JSON.stringify(input)}`, () => assert.equal(plainTitle(input), expected));
  }

  it("keeps titles to 60 characters", () => {
    const title = plainTitle("word ".repeat(40))!;
    assert.ok(title.length <= 60 && title.endsWith("…"));
  });
});
