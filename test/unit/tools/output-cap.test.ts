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

  // An even cap, as every caller's: with an odd one, output of exactly the cap loses its middle byte
  // without the marker (head and tail are half the cap each, rounded down). ASCII bytes: head and
  // tail are decoded apart, so a UTF-8 character across the half-cap mark shows as two U+FFFD even
  // in output under the cap.
  it("whatever the chunks, keeps exactly the output's first and last half-cap bytes", () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ max: 127, maxLength: 40 }), { maxLength: 30 }), fc.integer({ min: 1, max: 32 }).map((half) => half * 2), (chunks, cap) => {
        const buffer = new HeadTailBuffer(cap);
        for (const chunk of chunks) buffer.push(Buffer.from(chunk));
        const all = Buffer.concat(chunks.map((c) => Buffer.from(c)));
        const half = Math.floor(cap / 2);
        assert.equal(buffer.truncated, all.length > cap);
        const expected = all.length <= cap
          ? all.toString("utf8")
          : `${all.subarray(0, half).toString("utf8")}\n… [${all.length - 2 * half} bytes left out] …\n${all.subarray(all.length - half).toString("utf8")}`;
        assert.equal(buffer.text(), expected);
      }),
    );
  });
});
