// MCP resources and prompts in the composer (issue 34, item 11), the pure rules: a picked resource's
// token and whether the text still holds it (then it goes as `referencedResources`), the row's kind
// in words, a prompt's arguments (required ones checked, empty optional ones left out), where its
// text goes, and Retry of a failed turn that attached resources.
import assert from "node:assert/strict";
import type { Message } from "../../../src/shared/chats";
import type { RankedMention } from "../../../src/shared/mentions";
import { lastFailure } from "../../../webview/src/lib/failed-turns";
import {
  missingMessage,
  promptArguments,
  promptPick,
  withPromptText,
  type PromptPick,
} from "../../../webview/src/lib/mcp-prompt";
import { insertMention } from "../../../webview/src/lib/mention-insert";
import {
  announcement,
  referencedResources,
  rowKind,
  type PickedResource,
} from "../../../webview/src/lib/mention-popup";
import { tokenAt } from "../../../webview/src/lib/mention-token";

const architecture: PickedResource = {
  token: "everything:architecture.md",
  serverId: "everything",
  uri: "demo://resource/static/document/architecture.md",
  name: "architecture.md",
};
const features: PickedResource = {
  token: "everything:features.md",
  serverId: "everything",
  uri: "demo://resource/static/document/features.md",
  name: "features.md",
};

const resourceRow: RankedMention = {
  category: "mcp",
  label: "everything › architecture.md",
  detail: "Resource · text/markdown",
  insertText: "@everything:architecture.md",
  highlights: [],
  mcp: { kind: "resource", serverId: "everything", uri: architecture.uri, name: "architecture.md" },
};
const promptRow: RankedMention = {
  category: "mcp",
  label: "everything › Arguments Prompt",
  detail: "Prompt · A prompt with two arguments",
  insertText: "@everything:prompt:args-prompt",
  highlights: [],
  mcp: {
    kind: "prompt",
    serverId: "everything",
    name: "args-prompt",
    arguments: [{ name: "city", required: true, description: "Name of the city" }, { name: "state" }],
  },
};

describe("MCP resources picked with @", () => {
  it("go in as one readable word, and the popup does not open again on it", () => {
    const text = "summarise @arch";
    const edit = insertMention(text, tokenAt(text, text.length)!, resourceRow.insertText);
    assert.deepEqual(edit, { text: "summarise @everything:architecture.md ", caret: 38 });
    assert.equal(tokenAt(edit.text, 30), undefined, "inside the token: no popup");
  });

  it("are sent while the text still holds their token, in the order picked, each once", () => {
    const picked = [architecture, features, architecture];
    assert.deepEqual(referencedResources("@everything:architecture.md and @everything:features.md", picked), [
      architecture,
      features,
    ]);
    assert.deepEqual(
      referencedResources("what does @everything:architecture.md, say?", picked),
      [architecture],
      "punctuation after the token is the sentence's",
    );
  });

  it("are dropped once their token is deleted or edited", () => {
    assert.deepEqual(referencedResources("summarise it", [architecture]), []);
    assert.deepEqual(referencedResources("@everything:architecture", [architecture]), []);
    assert.deepEqual(referencedResources("everything:architecture.md without its @", [architecture]), []);
  });

  it("say in words which kind of MCP row they are", () => {
    assert.equal(rowKind(resourceRow), "MCP resource");
    assert.equal(rowKind(promptRow), "MCP prompt");
    assert.equal(rowKind({ category: "mcp" }), "MCP tool");
    assert.equal(rowKind({ category: "files" }), "File");
    assert.equal(
      announcement([resourceRow], 0, "arch", undefined),
      "1 result. everything › architecture.md, MCP resource, Resource · text/markdown, 1 of 1",
    );
  });
});

describe("MCP prompts picked with @", () => {
  const text = "first @Argu then";
  const pick: PromptPick = promptPick(
    promptRow.mcp as Extract<RankedMention["mcp"], { kind: "prompt" }>,
    promptRow.label,
    text,
    tokenAt(text, 11)!,
  );

  it("remember the token they came from and their arguments", () => {
    assert.deepEqual(pick.token, { start: 6, end: 11, text: "@Argu" });
    assert.deepEqual(
      pick.arguments.map((a) => [a.name, a.required === true]),
      [
        ["city", true],
        ["state", false],
      ],
    );
    const bare = promptPick({ kind: "prompt", serverId: "s", name: "simple" }, "s › Simple", "@sim", {
      start: 0,
      end: 4,
    });
    assert.deepEqual(bare.arguments, [], "no arguments: nothing to ask");
  });

  it("send the values trimmed, leave empty optional ones out, and name the required ones still empty", () => {
    assert.deepEqual(promptArguments(pick.arguments, { city: "  Lisbon ", state: " " }), {
      arguments: { city: "Lisbon" },
    });
    assert.deepEqual(promptArguments(pick.arguments, { city: "Lisbon", state: "Estremadura" }), {
      arguments: { city: "Lisbon", state: "Estremadura" },
    });
    assert.deepEqual(promptArguments(pick.arguments, { state: "x" }), { missing: ["city"] });
    assert.deepEqual(promptArguments([], {}), { arguments: {} });
  });

  it("say which required arguments are missing in a sentence", () => {
    assert.equal(missingMessage(["city"]), "Fill in city.");
    assert.equal(missingMessage(["city", "state"]), "Fill in city and state.");
    assert.equal(missingMessage(["a", "b", "c"]), "Fill in a, b and c.");
  });

  it("put their text in place of the @ token, keeping the rest of the draft, the caret after it", () => {
    assert.deepEqual(withPromptText(text, pick.token, "What's weather in Lisbon?"), {
      text: "first What's weather in Lisbon? then",
      caret: 31,
    });
    assert.deepEqual(withPromptText("@sim", { start: 0, end: 4, text: "@sim" }, "Hello\n"), {
      text: "Hello",
      caret: 5,
    });
    const glued = withPromptText("@simx", { start: 0, end: 4, text: "@sim" }, "Hi");
    assert.equal(glued.text, "Hi x", "a word right after the token keeps a space from the text");
  });

  it("go at the end when the draft changed where the token was", () => {
    assert.deepEqual(withPromptText("something else  ", pick.token, "Prompt text"), {
      text: "something else Prompt text",
      caret: 26,
    });
    assert.deepEqual(withPromptText("", pick.token, "Prompt text"), { text: "Prompt text", caret: 11 });
  });
});

describe("Retry of a failed turn that attached MCP resources", () => {
  const row = (seq: number, role: Message["role"], content: string, meta: Message["meta"], status = "complete") =>
    ({
      id: `m${seq}`,
      chatId: "c",
      seq,
      role,
      content,
      status,
      modelId: null,
      usage: null,
      meta,
      createdAt: "",
    }) as Message;

  it("sends the resources again, with their names for the chips", () => {
    const messages = [
      row(1, "user", "Resource: architecture.md\n…", {
        kind: "resource",
        serverId: "everything",
        uri: architecture.uri,
        path: "architecture.md",
      }),
      row(2, "user", "summarise @everything:architecture.md", null),
      row(3, "assistant", "", { error: { message: "down", retryable: true } }, "error"),
    ];
    assert.deepEqual(lastFailure(messages), {
      content: "summarise @everything:architecture.md",
      referencedResources: [{ serverId: "everything", uri: architecture.uri, name: "architecture.md" }],
      answerId: "m3",
    });
  });
});
