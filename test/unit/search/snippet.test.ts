// A search hit's snippet: the words around the first match, matches marked, and the marks the only
// tags in it whatever the message says.
import assert from "node:assert/strict";
import { searchWords } from "../../../src/search/fts-query";
import { snippetOf } from "../../../src/search/snippet";

const snippet = (content: string, query: string) => snippetOf(content, searchWords(query)!);

describe("snippetOf", () => {
  it("marks every matching word, in any case, the last query word as a prefix", () => {
    assert.equal(
      snippet("The Parser parses; the parser", "PARS"),
      "The <mark>Parser</mark> <mark>parses</mark>; the <mark>parser</mark>",
    );
    assert.equal(snippet("The Parser parses", "parser"), "The <mark>Parser</mark> parses");
    assert.equal(snippet("a tokenizer and a token", "token"), "a <mark>tokenizer</mark> and a <mark>token</mark>");
    assert.equal(
      snippet("a tokenizer and a token", "token and"),
      "a tokenizer <mark>and</mark> a <mark>token</mark>",
      "only the last word is a prefix",
    );
  });

  it("matches without diacritics, as the index does", () => {
    assert.equal(snippet("un café noir", "cafe"), "un <mark>café</mark> noir");
    assert.equal(snippet("a cafe here", "café"), "a <mark>cafe</mark> here");
  });

  it("starts a few words before the first match and stops 24 words in, with ellipses where it cuts", () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`);
    words[50] = "needle";
    const text = snippet(words.join(" "), "needle");
    assert.ok(text.startsWith("…w44 w45"), text);
    assert.ok(text.includes("<mark>needle</mark>"));
    assert.ok(text.endsWith("w67…"), text);
  });

  it("escapes what could read as markup, the message's own <mark> included", () => {
    assert.equal(
      snippet("<mark>x</mark> & <b>hit</b>", "hit"),
      "&lt;mark&gt;x&lt;/mark&gt; &amp; &lt;b&gt;<mark>hit</mark>&lt;/b&gt;",
    );
  });

  it("folds runs of white space (code, new lines) into one space", () => {
    assert.equal(snippet("\n  line one\n\n\ttwo  \n", "two"), "line one <mark>two</mark>");
  });

  it("shows the message's start, unmarked, when no word is found (the tokenizers differ on a rare character)", () => {
    assert.equal(snippet("nothing to see here", "absent"), "nothing to see here");
    assert.equal(snippet("", "absent"), "");
    assert.equal(snippet("--- ***", "absent"), "--- ***");
  });

  it("cuts long runs of punctuation between words (rules, separators of a table)", () => {
    assert.equal(snippet(`a ${"=".repeat(500)} needle`, "needle"), `a ${"=".repeat(39)}…<mark>needle</mark>`);
    assert.equal(snippet("-".repeat(10_000), "absent"), `${"-".repeat(40)}…`);
  });

  it("marks a word of several tokens by its tokens", () => {
    assert.equal(snippet("see src/part-3.ts now", "part-3"), "see src/<mark>part</mark>-<mark>3</mark>.ts now");
  });
});
