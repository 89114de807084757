import assert from "node:assert/strict";
import fc from "fast-check";
import { DEFAULT_OUTPUT_CAP_BYTES, HeadTailBuffer } from "../../../src/tools/output-cap";

const fill = (buffer: HeadTailBuffer, ...chunks: string[]) => {
  for (const chunk of chunks) buffer.push(Buffer.from(chunk));
  return buffer;
};

describe("a command's output within its cap (head and tail)", () => {
  it("keeps output up to the cap whole, in the order it came", () => {
    const buffer = fill(new HeadTailBuffer(10), "abc", "defg", "hij");
    assert.equal(buffer.truncated, false);
    assert.equal(buffer.text(), "abcdefghij");
    assert.equal(fill(new HeadTailBuffer(), "").text(), "");
  });

  it("keeps the first and last half of longer output and says how many bytes it left out", () => {
    const buffer = fill(new HeadTailBuffer(10), "0123456789", "abcdefghij", "KLMNO");
    assert.equal(buffer.truncated, true);
    assert.equal(buffer.text(), "01234\n… [15 bytes left out] …\nKLMNO");
  });

  it("trims the tail inside a chunk and across many small ones", () => {
    assert.equal(fill(new HeadTailBuffer(8), "abcdefghijklmnop").text(), "abcd\n… [8 bytes left out] …\nmnop");
    const many = fill(new HeadTailBuffer(8), ..."abcdefghijklmnopqrstuvwxyz".split(""));
    assert.equal(many.text(), "abcd\n… [18 bytes left out] …\nwxyz");
  });

  it("caps at 64 KiB by default", () => {
    assert.equal(DEFAULT_OUTPUT_CAP_BYTES, 64 * 1024);
    const buffer = new HeadTailBuffer();
    buffer.push(Buffer.alloc(DEFAULT_OUTPUT_CAP_BYTES, "a"));
    assert.equal(buffer.truncated, false);
    buffer.push(Buffer.from("b"));
    assert.equal(buffer.truncated, true);
    assert.match(buffer.text(), /\n… \[1 bytes left out\] …\na*b$/);
  });

  // Any cap, odd ones included, and any bytes: output within the cap comes back whole (a UTF-8
  // character across the middle included); past it, the first floor(cap/2) and the last ceil(cap/2) bytes.
  it("whatever the chunks and the cap, keeps the whole output within the cap, else its head and tail", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 1, max: 64 }),
        (chunks, cap) => {
          const buffer = new HeadTailBuffer(cap);
          for (const chunk of chunks) buffer.push(Buffer.from(chunk));
          const all = Buffer.concat(chunks.map((c) => Buffer.from(c)));
          const head = Math.floor(cap / 2);
          const tail = cap - head;
          assert.equal(buffer.truncated, all.length > cap);
          const expected =
            all.length <= cap
              ? all.toString("utf8")
              : `${all.subarray(0, head).toString("utf8")}\n… [${all.length - cap} bytes left out] …\n${all.subarray(all.length - tail).toString("utf8")}`;
          assert.equal(buffer.text(), expected);
        },
      ),
    );
  });

  it("keeps a character that spans the middle of the cap whole", () => {
    const buffer = new HeadTailBuffer(8);
    buffer.push(Buffer.from("abcéx"));
    assert.equal(buffer.text(), "abcéx");
  });
});
