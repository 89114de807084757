import assert from "node:assert/strict";
import fc from "fast-check";
import { parseArguments, quoteValue, routeComposerText, type ComposerRoute } from "../../../src/chat/composer-route";

const context = { agents: ["reviewer", "docs-writer"], actions: ["test", "lint-all", "reviewer-action"] };
const message: ComposerRoute = { kind: "message" };
const tool = (name: string, args: Record<string, unknown>): ComposerRoute => ({
  kind: "tool",
  tool: name,
  arguments: args,
});

const table: [string, ComposerRoute][] = [
  // agents
  ["@reviewer check this diff", { kind: "agent", agent: "reviewer", task: "check this diff" }],
  ["@reviewer   spaced out  ", { kind: "agent", agent: "reviewer", task: "spaced out" }],
  ["@reviewer line one\nline two", { kind: "agent", agent: "reviewer", task: "line one\nline two" }],
  ["@docs-writer write the README", { kind: "agent", agent: "docs-writer", task: "write the README" }],
  ["@reviewer", message],
  ["@reviewer   ", message],
  ["please @reviewer check", message],
  [" @reviewer check", message],
  ["@reviewers check", message],
  ["@Reviewer check", message],
  // actions
  ["@test", { kind: "action", action: "test" }],
  ["@lint-all", { kind: "action", action: "lint-all" }],
  ["@test now", message],
  ["@tests", message],
  // shell
  ["@shell ls -la", tool("shell", { cmd: "ls -la" })],
  ["@shell npm test -- --grep 'a b'", tool("shell", { cmd: "npm test -- --grep 'a b'" })],
  ['@shell {"cmd":"echo hi","timeoutMs":500}', tool("shell", { cmd: "echo hi", timeoutMs: 500 })],
  ['@shell cmd="echo hi" timeoutMs=500', tool("shell", { cmd: "echo hi", timeoutMs: 500 })],
  ["@shell cmd=ls", tool("shell", { cmd: "ls" })],
  ["@shell:cmd=`ls -la src`", tool("shell", { cmd: "ls -la src" })],
  ["@shell:cmd=`echo a` cwd=`sub dir`", tool("shell", { cmd: "echo a", cwd: "sub dir" })],
  ["@shell:cmd=``", tool("shell", { cmd: "" })],
  ["@shell", message],
  ["@shell   ", message],
  ['@shell "unterminated', message],
  ["@shell echo 'unterminated", message],
  ["@shell:cmd=`unterminated", message],
  ["@shell: junk", message],
  ["@shell {not json", tool("shell", { cmd: "{not json" })],
  ["@shell [1,2]", tool("shell", { cmd: "[1,2]" })],
  // web_fetch: a bare URL is its `url`
  ["@web_fetch https://example.com/a?b=c&d=e", tool("web_fetch", { url: "https://example.com/a?b=c&d=e" })],
  ["@web_fetch:url=`https://example.com/`", tool("web_fetch", { url: "https://example.com/" })],
  [
    "@web_fetch url=https://example.com/ maxBytes=1000",
    tool("web_fetch", { url: "https://example.com/", maxBytes: 1000 }),
  ],
  ["@web_fetch", message],
  // other native tools never run from the composer
  ["@ask_user why?", message],
  ["@task a", message],
  // MCP tools
  ['@mcp__fs__read_file {"path":"a.txt"}', tool("mcp__fs__read_file", { path: "a.txt" })],
  ["@mcp__fs__read_file path=a.txt", tool("mcp__fs__read_file", { path: "a.txt" })],
  ["@mcp__everything__get-sum a=2 b=3", tool("mcp__everything__get-sum", { a: 2, b: 3 })],
  [
    "@mcp__x__t flag=true off=false none=null n=-1.5e3 s=007",
    tool("mcp__x__t", { flag: true, off: false, none: null, n: -1500, s: "007" }),
  ],
  ['@mcp__x__t q="true" msg="a \\"quoted\\" word"', tool("mcp__x__t", { q: "true", msg: 'a "quoted" word' })],
  ["@mcp__x__t msg='single quoted'", tool("mcp__x__t", { msg: "single quoted" })],
  ["@mcp__x__t:path=`a b.txt` mode=`r`", tool("mcp__x__t", { path: "a b.txt", mode: "r" })],
  ["@mcp__x__t just words", message],
  ["@mcp__x__t", message],
  ["@mcp__X__t a=1", message],
  ["@mcp__x__t a=1 words", message],
  // file tools and other natives never dispatch
  ["@file action=read path=a.txt", message],
  ["@read_file path=a.txt", message],
  ["@list_files", message],
  ["@search_files pattern=x", message],
  ["@write_file path=a content=b", message],
  ["@task items=[]", message],
  ["@ask_user question=hi", message],
  // plain text and oddities
  ["hello there", message],
  ["", message],
  ["@", message],
  ["@@shell ls", message],
  ["email me@example.com", message],
];

describe("composer routing", () => {
  for (const [text, expected] of table) {
    it(`routes ${JSON.stringify(text)}`, () => assert.deepEqual(routeComposerText(text, context), expected));
  }

  it("has the spec's table and its edge cases (at least 40 cases)", () => assert.ok(table.length >= 40));

  it("round-trips any JSON object given as arguments", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue()), (object) => {
        const routed = routeComposerText(`@mcp__srv__tool ${JSON.stringify(object)}`, context);
        assert.equal(routed.kind, "tool");
        assert.deepEqual((routed as { arguments: unknown }).arguments, JSON.parse(JSON.stringify(object)));
      }),
    );
  });

  it("round-trips quoted key=value strings", () => {
    const key = fc.stringMatching(/^[A-Za-z_][\w-]{0,8}$/);
    fc.assert(
      fc.property(fc.dictionary(key, fc.string(), { minKeys: 1, maxKeys: 5, noNullPrototype: true }), (object) => {
        const text = Object.entries(object)
          .map(([k, v]) => `${k}=${quoteValue(v)}`)
          .join(" ");
        assert.deepEqual(parseArguments(text), object);
      }),
    );
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `@shell ${s}`),
          fc.string().map((s) => `@mcp__a__b${s}`),
          fc.string().map((s) => `@reviewer${s}`),
        ),
        (text) => {
          const routed = routeComposerText(text, context);
          assert.ok(["agent", "tool", "action", "message"].includes(routed.kind));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
