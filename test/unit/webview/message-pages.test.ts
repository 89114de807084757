// The chat view's pages of messages: a reload keeps the older messages the reader scrolled to.
import assert from "node:assert/strict";
import type { ChatWithMessages } from "../../../src/shared/api-routes";
import { withOlderKept } from "../../../webview/src/lib/message-pages";
import { formatBytes } from "../../../webview/src/lib/format";
import { messageFactory } from "../../helpers/stored-messages";

const message = messageFactory();
const all = Array.from({ length: 10 }, (_, i) => message(i % 2 ? "assistant" : "user", `m${i}`));
const chat = (messages = all, hasMore?: boolean): ChatWithMessages =>
  ({ id: "c", messages, hasMore, usage: {} }) as unknown as ChatWithMessages;

describe("message pages", () => {
  it("keeps the older messages before a fresh page that overlaps what was shown", () => {
    const shown = chat(all.slice(2), true); // the reader loaded m2..m9; m0, m1 are older still
    const fresh = chat(all.slice(5), true);
    const joined = withOlderKept(shown, fresh);
    assert.deepEqual(
      joined.messages.map((m) => m.content),
      all.slice(2).map((m) => m.content),
    );
    assert.equal(joined.hasMore, true, "what precedes the kept part");
  });

  it("takes the page alone when it holds everything, or when a gap would open", () => {
    assert.equal(withOlderKept(chat(all.slice(2), true), chat(all, false)).messages.length, 10);
    const later = [...all, message("user", "new 1"), message("assistant", "new 2")];
    const gap = withOlderKept(chat(all.slice(0, 4), false), chat(later.slice(6), true));
    assert.deepEqual(
      gap.messages.map((m) => m.content),
      later.slice(6).map((m) => m.content),
    );
    assert.equal(gap.hasMore, true);
  });

  it("takes the page alone when it continues another branch than the one shown (an edit, a switch of versions)", () => {
    // Shown: m0..m9 on one branch. The fresh page is a branch off m3 whose rows came later: its first
    // row's parent is m3, not the last kept row.
    const branch = [message("user", "b1"), message("assistant", "b2")].map((m, i) => ({
      ...m,
      parentId: i === 0 ? all[3]!.id : m.parentId,
    }));
    const shown = chat(all, true);
    const fresh = chat([{ ...all[3]! }, ...branch].slice(1), true);
    assert.deepEqual(
      withOlderKept(shown, fresh).messages.map((m) => m.content),
      ["b1", "b2"],
    );
  });

  it("says how long a hidden text is in words", () => {
    assert.equal(formatBytes(820), "820 characters");
    assert.equal(formatBytes(48_200), "48 KB");
    assert.equal(formatBytes(4_800_000), "4.8 MB");
  });
});
