// The chat list's pure rules: which chats it lists, relative times, a search hit's snippet as text
// and marks, the row menu's keys, and the name of a downloaded file.
import assert from "node:assert/strict";
import type { Chat } from "../../../src/shared/chats";
import { startedChats } from "../../../webview/src/lib/chat-filter";
import { attachmentName } from "../../../webview/src/lib/download";
import { fullDate, relativeTime } from "../../../webview/src/lib/format";
import { menuKey, typeAhead } from "../../../webview/src/lib/menu-keys";
import { snippetParts } from "../../../webview/src/lib/snippet";

const chat = (id: string, leafId: string | null): Chat => ({
  id,
  projectId: "p",
  title: `Chat ${id}`,
  promptId: null,
  cardPromptId: null,
  modelId: null,
  agent: null,
  tools: null,
  agentFiles: null,
  skills: null,
  leafId,
  worktreeBranch: null,
  createdAt: "2025-01-01T00:00:00Z",
  updatedAt: "2025-01-01T00:00:00Z",
});

/** A local time, as the user's clock reads it. */
const at = (year: number, month: number, day: number, hour = 12, minute = 0) =>
  new Date(year, month - 1, day, hour, minute).getTime();
const iso = (time: number) => new Date(time).toISOString();

describe("chat list", () => {
  it("lists the chats with a message, and the open one even while it has none", () => {
    const chats = [chat("a", "m1"), chat("b", null), chat("c", "m2")];
    assert.deepEqual(
      startedChats(chats).map((c) => c.id),
      ["a", "c"],
    );
    assert.deepEqual(
      startedChats(chats, "b").map((c) => c.id),
      ["a", "b", "c"],
    );
  });

  it("says when in words: just now, minutes, hours today, yesterday, days, then the date", () => {
    const now = at(2025, 3, 14, 15, 30);
    assert.equal(relativeTime(iso(now - 20_000), now), "just now");
    assert.equal(relativeTime(iso(now + 60_000), now), "just now", "another machine's clock ahead");
    assert.equal(relativeTime(iso(now - 2 * 60_000), now), "2 min ago");
    assert.equal(relativeTime(iso(now - 59 * 60_000), now), "59 min ago");
    assert.equal(relativeTime(iso(at(2025, 3, 14, 9, 0)), now), "6 h ago");
    assert.equal(relativeTime(iso(at(2025, 3, 13, 23, 50)), now), "yesterday", "before midnight is yesterday");
    assert.equal(relativeTime(iso(at(2025, 3, 13, 23, 50)), at(2025, 3, 14, 0, 20)), "30 min ago");
    assert.equal(relativeTime(iso(at(2025, 3, 10)), now), "4 days ago");
    assert.equal(relativeTime(iso(at(2025, 3, 4)), now, "en-US"), "Mar 4");
    assert.equal(relativeTime(iso(at(2023, 12, 25)), now, "en-US"), "Dec 25, 2023");
    assert.equal(relativeTime("not a date", now), "");
  });

  it("gives the full date for the tooltip", () => {
    assert.match(fullDate(iso(at(2025, 3, 4, 14, 5)), "en-US"), /^March 4, 2025 at 2:05\sPM$/);
    assert.equal(fullDate("nope"), "");
  });

  it("reads a snippet as text and marks, decoding only what the server escaped", () => {
    assert.deepEqual(snippetParts("…the <mark>tokenizer</mark> &lt;b&gt;x&lt;/b&gt; &amp;amp; <mark>Token</mark>"), [
      { text: "…the ", marked: false },
      { text: "tokenizer", marked: true },
      { text: " <b>x</b> &amp; ", marked: false },
      { text: "Token", marked: true },
    ]);
    assert.deepEqual(snippetParts(""), []);
    assert.deepEqual(snippetParts("<img src=x onerror=alert(1)>"), [
      { text: "<img src=x onerror=alert(1)>", marked: false },
    ]);
  });

  it("moves through a menu by keys: arrows wrap, Home and End, Escape back to the button, Tab on", () => {
    assert.deepEqual(menuKey("ArrowDown", 0, 2), { focus: 1 });
    assert.deepEqual(menuKey("ArrowDown", 1, 2), { focus: 0 });
    assert.deepEqual(menuKey("ArrowUp", 0, 2), { focus: 1 });
    assert.deepEqual(menuKey("Home", 1, 3), { focus: 0 });
    assert.deepEqual(menuKey("End", 0, 3), { focus: 2 });
    assert.deepEqual(menuKey("Escape", 0, 3), { close: "restore" });
    assert.deepEqual(menuKey("Tab", 0, 3), { close: "leave" });
    assert.equal(menuKey("x", 0, 3), undefined);
    assert.equal(menuKey("ArrowDown", 0, 0), undefined);
  });

  it("jumps to the next item starting with a typed letter", () => {
    const labels = ["Rename", "Delete", "Duplicate"];
    assert.equal(typeAhead("d", 0, labels), 1);
    assert.equal(typeAhead("D", 1, labels), 2);
    assert.equal(typeAhead("d", 2, labels), 1, "wraps");
    assert.equal(typeAhead("z", 0, labels), undefined);
    assert.equal(typeAhead("Enter", 0, labels), undefined);
  });

  it("names a download as the server's Content-Disposition says", () => {
    assert.equal(
      attachmentName(`attachment; filename="Caf? plan.md"; filename*=UTF-8''Caf%C3%A9%20plan.md`),
      "Café plan.md",
    );
    assert.equal(attachmentName('attachment; filename="a \\"b\\".json"'), 'a "b".json');
    assert.equal(attachmentName("attachment; filename=plain.md"), "plain.md");
    assert.equal(attachmentName("attachment; filename*=UTF-8''%E0%A4%A.md; filename=\"x.md\""), "x.md");
    assert.equal(attachmentName(null, "chat"), "chat");
    assert.equal(attachmentName("attachment"), "download");
  });
});
