// Streaming Markdown as blocks: finished blocks are kept as they are, only the tail is parsed again.
import assert from "node:assert/strict";
import { MarkdownBlocks } from "../../../webview/src/lib/markdown-blocks";

describe("markdown blocks while streaming", () => {
  const answer =
    "# Title\n\nA paragraph\nthat goes on.\n\n- one\n- two\n\n- three\n\n```ts\nconst x = 1;\n\nconst y = 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nThe end.";

  it("keeps finished blocks, ids and text, while the answer grows a character at a time", () => {
    const blocks = new MarkdownBlocks();
    const seen = new Map<number, string>();
    for (let i = 1; i <= answer.length; i++) {
      const { added, tail, reset } = blocks.update(answer.slice(0, i));
      assert.equal(reset, false);
      for (const block of added) {
        assert.ok(!seen.has(block.id));
        seen.set(block.id, block.text);
      }
      // Everything is either finished or in the tail.
      assert.equal(blocks.finishedLength + tail.text.length, i);
      assert.ok(answer.slice(0, i).endsWith(tail.text));
    }
    const texts = blocks.blocks.map((b) => b.text.trim());
    assert.deepEqual(texts, [
      "# Title",
      "A paragraph\nthat goes on.",
      "- one\n- two\n\n- three",
      "```ts\nconst x = 1;\n\nconst y = 2;\n```",
      "| a | b |\n|---|---|\n| 1 | 2 |",
    ]);
    for (const block of blocks.blocks) assert.equal(seen.get(block.id), block.text, "a finished block never changes");
  });

  it("shows an open code fence as plain code, blank lines inside it included", () => {
    const blocks = new MarkdownBlocks();
    const { tail } = blocks.update("Intro\n\n```py\nprint(1)\n\nprint(2)");
    assert.deepEqual(tail.openFence, { lang: "py", code: "print(1)\n\nprint(2)" });
    assert.deepEqual(
      blocks.blocks.map((b) => b.text.trim()),
      ["Intro"],
    );
    const closed = blocks.update("Intro\n\n```py\nprint(1)\n\nprint(2)\n```");
    assert.equal(closed.tail.openFence, undefined);
  });

  it("starts over when the text is not a continuation", () => {
    const blocks = new MarkdownBlocks();
    blocks.update("First\n\nSecond\n\nThird");
    assert.equal(blocks.blocks.length, 2);
    const again = blocks.update("Other\n\nText");
    assert.equal(again.reset, true);
    assert.deepEqual(
      blocks.blocks.map((b) => b.text.trim()),
      ["Other"],
    );
  });

  it("lexes only the tail: the work per update does not grow with the finished part", () => {
    const blocks = new MarkdownBlocks();
    let text = "";
    for (let i = 0; i < 2_000; i++) {
      text += `Paragraph ${i} with some words in it.\n\n`;
      blocks.update(text);
    }
    assert.equal(blocks.blocks.length, 1_999);
    blocks.update(`${text}tail`);
    assert.ok(text.length > 70_000);
    assert.ok(blocks.lexedChars < 100, `${blocks.lexedChars}`);
  });
});
