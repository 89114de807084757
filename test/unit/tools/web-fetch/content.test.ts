// What web_fetch does with a body by its type: HTML to markdown, text as text, binary refused; an
// untyped body judged by its first bytes; charsets honoured; the text given to the model capped.
import assert from "node:assert/strict";
import { capText, declaredKind, decodeText, MAX_TEXT_CHARS, sniffKind } from "../../../../src/tools/web-fetch/content";
import { htmlToMarkdown } from "../../../../src/tools/web-fetch/html-markdown";
import { sizeWords } from "../../../../src/tools/web-fetch/web-fetch";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("web_fetch content", () => {
  it("knows HTML, text and binary by the declared type", () => {
    const table: [string | null, string | undefined][] = [
      ["text/html; charset=utf-8", "html"],
      ["TEXT/HTML", "html"],
      ["application/xhtml+xml", "html"],
      ["text/plain", "text"],
      ["text/markdown", "text"],
      ["text/csv", "text"],
      ["application/json", "text"],
      ["application/ld+json", "text"],
      ["application/atom+xml", "text"],
      ["application/xml", "text"],
      ["application/javascript", "text"],
      ["application/x-yaml", "text"],
      ["image/png", "binary"],
      ["application/pdf", "binary"],
      ["application/octet-stream", "binary"],
      ["application/zip", "binary"],
      ["video/mp4", "binary"],
      ["font/woff2", "binary"],
      [null, undefined],
      ["", undefined],
    ];
    for (const [type, kind] of table) assert.equal(declaredKind(type), kind, String(type));
  });

  it("judges an untyped body by its start: markup is HTML, a NUL byte or broken UTF-8 binary", () => {
    assert.equal(sniffKind(bytes("  <!DOCTYPE html><p>x")), "html");
    assert.equal(sniffKind(bytes("<html>")), "html");
    assert.equal(sniffKind(bytes("plain words, ünïcode")), "text");
    assert.equal(sniffKind(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])), "binary");
    assert.equal(sniffKind(new Uint8Array([0xff, 0xfe, 0x41, 0x42])), "binary");
    // A character cut by the 1 KiB sample is no fault of the body.
    const cut = bytes(`${"a".repeat(1023)}é`);
    assert.equal(sniffKind(cut), "text");
  });

  it("decodes in the charset the type names, UTF-8 otherwise", () => {
    assert.equal(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), "text/plain; charset=ISO-8859-1"), "café");
    assert.equal(decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), 'text/plain; charset="windows-1252"'), "café");
    assert.equal(decodeText(bytes("café"), "text/plain"), "café");
    assert.equal(decodeText(bytes("café"), "text/plain; charset=no-such-charset"), "café");
  });

  it("gives the model at most MAX_TEXT_CHARS characters, and says how much was left out", () => {
    assert.deepEqual(capText("short"), { text: "short", cut: false });
    const long = "x".repeat(MAX_TEXT_CHARS + 10);
    const capped = capText(long);
    assert.equal(capped.cut, true);
    assert.ok(capped.text.startsWith("x".repeat(MAX_TEXT_CHARS)));
    assert.match(capped.text, /\[cut: the text goes on for 10 more characters\]$/);
    assert.deepEqual([sizeWords(5 * 1024 * 1024), sizeWords(2048), sizeWords(1000)], ["5 MB", "2 KB", "1000 bytes"]);
  });

  it("turns HTML into markdown without scripts, styles or inline images, its links made absolute", () => {
    const html = `<!doctype html><html><head><title>Docs</title><style>p{color:red}</style>
      <script>steal()</script></head><body><h1>Install</h1><p>Run <code>npm i</code>, see
      <a href="../guide/start (1).html">the guide</a> or <a href="javascript:void(0)">this</a>.</p>
      <noscript>enable JS</noscript><img src="data:image/png;base64,AAAA" alt="inline chart">
      <img src="/logo.png" alt="Logo"><pre><code class="language-sh">npm test\n</code></pre>
      <ul><li>one</li><li>two</li></ul><svg><text>svg words</text></svg><button>Buy</button></body></html>`;
    const markdown = htmlToMarkdown(html, "https://example.com/docs/install/");
    assert.equal(
      markdown,
      [
        "Docs",
        "",
        "# Install",
        "",
        "Run `npm i`, see [the guide](https://example.com/docs/guide/start%20%281%29.html) or this.",
        "",
        "inline chart ![Logo](https://example.com/logo.png)",
        "",
        "```sh",
        "npm test",
        "```",
        "",
        "-   one",
        "-   two",
      ].join("\n"),
    );
    for (const gone of ["steal", "color:red", "enable JS", "base64", "svg words", "Buy"])
      assert.ok(!markdown.includes(gone), gone);
  });
});
