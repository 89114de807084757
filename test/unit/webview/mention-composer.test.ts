// The @ popup's pure rules: the token under the caret, what a pick does to the text (no stray
// characters, no double space, picker syntax with the caret inside the backticks), the Parameters
// chips, the keyboard state machine, highlights, grouping, the exact-action rule and referenced files.
import assert from "node:assert/strict";
import type { Message } from "../../../src/shared/chats";
import type { RankedMention } from "../../../src/shared/mentions";
import { insertMention, isPickerInsert } from "../../../webview/src/lib/mention-insert";
import {
  appendParameter,
  pickerTool,
  remainingParameters,
  toolParameters,
} from "../../../webview/src/lib/mention-parameters";
import {
  announcement,
  exactAction,
  highlightSegments,
  keyIntent,
  moveActive,
  referencedPaths,
  sections,
  withCurrentModel,
} from "../../../webview/src/lib/mention-popup";
import { tokenAt } from "../../../webview/src/lib/mention-token";
import { transcriptItems } from "../../../webview/src/lib/transcript";

/** `text` with `|` marking the caret. */
function at(marked: string) {
  const caret = marked.indexOf("|");
  return { text: marked.replace("|", ""), caret };
}
const tokenOf = (marked: string) => {
  const { text, caret } = at(marked);
  return tokenAt(text, caret);
};
/** Picks `insertText` for the token under the caret; the result with `|` at the new caret. */
function pick(marked: string, insertText: string): string {
  const { text, caret } = at(marked);
  const token = tokenAt(text, caret);
  assert.ok(token, `a token under the caret of ${marked}`);
  const edit = insertMention(text, token, insertText);
  return edit.text.slice(0, edit.caret) + "|" + edit.text.slice(edit.caret);
}

const row = (category: RankedMention["category"], label: string, detail = ""): RankedMention => ({
  category,
  label,
  detail,
  insertText: `@${label}`,
  highlights: [],
});
const key = (k: string, extra: Partial<{ shiftKey: boolean; ctrlKey: boolean; isComposing: boolean }> = {}) => ({
  key: k,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  ...extra,
});

describe("the @ token under the caret", () => {
  it("opens on an @ at the start, after a space, or after an opening bracket, with the query up to the caret", () => {
    assert.deepEqual(tokenOf("@|"), { start: 0, end: 1, query: "" });
    assert.deepEqual(tokenOf("look at @REA|"), { start: 8, end: 12, query: "REA" });
    assert.deepEqual(tokenOf("(see @src/a|)"), { start: 5, end: 11, query: "src/a" });
  });

  it("runs through the characters after the caret, so a pick replaces all of them", () => {
    assert.deepEqual(tokenOf("x @RE|ADxyz y"), { start: 2, end: 10, query: "RE" });
  });

  it("opens nothing for an e-mail address, text without @, a caret before the @, or a word after the token", () => {
    assert.equal(tokenOf("mail me@host|"), undefined);
    assert.equal(tokenOf("plain text|"), undefined);
    assert.equal(tokenOf("|@abc"), undefined);
    assert.equal(tokenOf("@shell echo|"), undefined);
  });

  it("opens nothing inside the picker syntax of a tool's parameters", () => {
    assert.equal(tokenOf("@shell:cmd=`|`"), undefined);
    assert.equal(tokenOf("@shell:cmd=`ls|`"), undefined);
    assert.equal(tokenOf("@mcp__s__t:|"), undefined);
  });
});

describe("a pick replaces the whole token (rule 16)", () => {
  it("leaves no stray characters after the caret and exactly one space", () => {
    assert.equal(pick("look at @RE|ADxyz please", "@README.md"), "look at @README.md |please");
    assert.equal(pick("@RE|", "@README.md"), "@README.md |");
    assert.equal(pick("a @x| b", "@src/x.ts"), "a @src/x.ts |b");
    assert.equal(pick("(see @sr|c)", "@src/x.ts"), "(see @src/x.ts|)");
  });

  it("never doubles the space an agent's insert text brings", () => {
    assert.equal(pick("@rev|", "@reviewer "), "@reviewer |");
    assert.equal(pick("@rev| the diff", "@reviewer "), "@reviewer |the diff");
  });

  it("puts the caret right after the opening backtick of a tool's first parameter (rule 17)", () => {
    assert.equal(pick("@sh|", "@shell:cmd=``"), "@shell:cmd=`|`");
    assert.equal(pick("@sh|ell then", "@shell:cmd=``"), "@shell:cmd=`|` then");
    assert.equal(pick("@sh|x,y", "@shell:cmd=``"), "@shell:cmd=`|`");
    assert.ok(isPickerInsert("@mcp__a__b:message=``"));
    assert.ok(!isPickerInsert("@notes``"));
  });
});

describe("the Parameters chips (rule 17)", () => {
  const schema = {
    type: "object",
    properties: { a: { type: "number", description: "first" }, b: { type: "number" }, note: { type: "string" } },
    required: ["a", "b"],
  };
  const schemas = (tool: string) => (tool === "mcp__e__sum" ? schema : undefined);

  it("lists a schema's parameters in order, marking the required ones", () => {
    assert.deepEqual(toolParameters(schema), [
      { name: "a", required: true, description: "first" },
      { name: "b", required: true },
      { name: "note", required: false },
    ]);
    assert.deepEqual(toolParameters(undefined), []);
    assert.deepEqual(toolParameters({ type: "object" }), []);
  });

  it("offers the parameters the picker text still lacks, ignoring keys inside backticked values", () => {
    assert.equal(pickerTool("@mcp__e__sum:a=`1`"), "mcp__e__sum");
    assert.deepEqual(
      remainingParameters("@mcp__e__sum:a=`1`", schemas).map((p) => p.name),
      ["b", "note"],
    );
    assert.deepEqual(
      remainingParameters("@mcp__e__sum:a=`b=2` note=`x`", schemas).map((p) => p.name),
      ["b"],
    );
    assert.deepEqual(remainingParameters("@mcp__e__sum a=1", schemas), [], "not picker syntax");
    assert.deepEqual(remainingParameters("@other:x=``", schemas), [], "a tool without a schema");
  });

  it("appends `key=` and backticks with the caret inside", () => {
    assert.deepEqual(appendParameter("@mcp__e__sum:a=`1`", "b"), { text: "@mcp__e__sum:a=`1` b=``", caret: 22 });
    assert.deepEqual(appendParameter("@t:a=`1`  ", "b"), { text: "@t:a=`1` b=``", caret: 12 });
  });
});

describe("the popup's keys (rule 14) and Enter on an action (rule 15)", () => {
  const open = { open: true, count: 3, active: 0 };

  it("moves with Down and Up, wrapping at both ends", () => {
    assert.deepEqual(keyIntent(key("ArrowDown"), open, false), { kind: "move", active: 1 });
    assert.deepEqual(keyIntent(key("ArrowDown"), { ...open, active: 2 }, false), { kind: "move", active: 0 });
    assert.deepEqual(keyIntent(key("ArrowUp"), open, false), { kind: "move", active: 2 });
    assert.equal(moveActive(-1, 3, -1), 2);
    assert.equal(moveActive(0, 0, 1), -1);
  });

  it("selects with Enter or Tab, dismisses with Escape even when nothing matches", () => {
    assert.deepEqual(keyIntent(key("Enter"), { ...open, active: 1 }, false), {
      kind: "select",
      index: 1,
      via: "enter",
    });
    assert.deepEqual(keyIntent(key("Tab"), open, false), { kind: "select", index: 0, via: "tab" });
    assert.deepEqual(keyIntent(key("Escape"), { open: true, count: 0, active: -1 }, false), { kind: "dismiss" });
  });

  it("leaves modified keys, keys while composing, and Enter with nothing to pick to the composer", () => {
    assert.deepEqual(keyIntent(key("Enter", { shiftKey: true }), open, false), { kind: "pass" });
    assert.deepEqual(keyIntent(key("Enter", { ctrlKey: true }), open, false), { kind: "pass" });
    assert.deepEqual(keyIntent(key("Enter", { isComposing: true }), open, true), { kind: "pass" });
    assert.deepEqual(keyIntent(key("Enter"), { open: true, count: 0, active: -1 }, false), { kind: "pass" });
    assert.deepEqual(keyIntent(key("ArrowDown"), { open: false, count: 0, active: -1 }, false), { kind: "pass" });
    assert.deepEqual(keyIntent(key("a"), open, false), { kind: "pass" });
  });

  it("runs a complete action on Enter, whatever row is active and whether or not the popup is open", () => {
    assert.deepEqual(keyIntent(key("Enter"), { ...open, active: 2 }, true), { kind: "run" });
    assert.deepEqual(keyIntent(key("Enter"), { open: false, count: 0, active: -1 }, true), { kind: "run" });
    assert.deepEqual(keyIntent(key("Tab"), open, true), { kind: "select", index: 0, via: "tab" });
  });

  it("knows an exact action id only when it is the whole text", () => {
    assert.equal(exactAction("@deploy", ["deploy"]), "deploy");
    assert.equal(exactAction("  @deploy \n", ["deploy"]), "deploy");
    assert.equal(exactAction("@deploy now", ["deploy"]), undefined);
    assert.equal(exactAction("@deplo", ["deploy"]), undefined);
    assert.equal(exactAction("run @deploy", ["deploy"]), undefined);
  });
});

describe("the popup's rows", () => {
  it("cuts a name into plain and <mark> pieces (rule 11), clamping odd ranges", () => {
    assert.deepEqual(highlightSegments("Button.svelte", [[0, 3]]), [
      { text: "But", mark: true },
      { text: "ton.svelte", mark: false },
    ]);
    assert.deepEqual(
      highlightSegments("abc", [
        [2, 9],
        [1, 2],
      ]),
      [
        { text: "a", mark: false },
        { text: "b", mark: true },
        { text: "c", mark: true },
      ],
    );
    assert.deepEqual(highlightSegments("abc", []), [{ text: "abc", mark: false }]);
  });

  it("heads each category with an empty query, and keeps one relevance-ordered run while searching", () => {
    const results = [row("files", "a.ts"), row("files", "b.ts"), row("agents", "rev"), row("tools", "shell")];
    assert.deepEqual(
      sections(results, true).map((s) => [s.label, s.rows.map((r) => r.index)]),
      [
        ["Files", [0, 1]],
        ["Agents", [2]],
        ["Tools", [3]],
      ],
    );
    assert.deepEqual(
      sections(results, false).map((s) => [s.label, s.rows.length]),
      [[undefined, 4]],
    );
    assert.deepEqual(sections([], false), []);
  });

  it("shows the model picked in the chat as the Model row, when it matches", () => {
    const server = [row("files", "a.ts"), row("model", "old/model")];
    assert.deepEqual(
      withCurrentModel(server, "fake/echo", "", undefined).map((r) => r.label),
      ["a.ts", "fake/echo"],
    );
    assert.deepEqual(withCurrentModel(server, "fake/echo", "ech", undefined).at(-1)?.highlights, [[5, 8]]);
    assert.deepEqual(
      withCurrentModel(server, "fake/echo", "zzz", undefined).map((r) => r.label),
      ["a.ts"],
    );
    assert.deepEqual(
      withCurrentModel(server, "fake/echo", "", "files").map((r) => r.label),
      ["a.ts"],
    );
    assert.deepEqual(
      withCurrentModel(server, undefined, "", undefined).map((r) => r.label),
      ["a.ts", "old/model"],
    );
  });

  it("says the count and the active row, or that nothing matches", () => {
    assert.equal(
      announcement([row("files", "a.ts", "Project root"), row("agents", "rev")], 0, "a", undefined),
      "2 results. a.ts, File, Project root, 1 of 2",
    );
    assert.equal(announcement([], -1, "zz", undefined), "No matches for @zz");
    assert.equal(announcement([], -1, "", "mcp"), "No MCP in this project");
  });
});

describe("referenced files", () => {
  it("sends the picked files the text still names, once each, and not the ones removed", () => {
    assert.deepEqual(
      referencedPaths("see @src/a.ts and @README.md, then @src/a.ts", ["README.md", "src/a.ts", "gone.md"]),
      ["README.md", "src/a.ts"],
    );
    assert.deepEqual(referencedPaths("nothing here", ["a.ts"]), []);
    assert.deepEqual(referencedPaths("@a.ts.", ["a.ts."]), ["a.ts."]);
  });
});

describe("the sent message's file chips", () => {
  const message = (id: string, role: Message["role"], content: string, meta: Message["meta"] = null): Message => ({
    id,
    chatId: "c",
    seq: Number(id.slice(1)),
    role,
    content,
    status: "complete",
    modelId: null,
    usage: null,
    meta,
    parentId: null,
    createdAt: "2025-01-01T00:00:00.000Z",
  });

  it("shows the injected files as chips of the message that referenced them, not as rows of their own", () => {
    const items = transcriptItems([
      message("m1", "user", "<file README.md>", { kind: "file", path: "README.md" }),
      message("m2", "user", "what is @README.md?", { referencedPaths: ["README.md"] }),
      message("m3", "assistant", "A readme."),
      message("m4", "user", "and this?"),
    ]);
    assert.deepEqual(
      items.map((i) => [i.kind, i.kind === "user" ? i.files : undefined]),
      [
        ["user", ["README.md"]],
        ["assistant", undefined],
        ["user", []],
      ],
    );
  });
});
