// The chat view's pure rules (issue 17): a failed attempt that a retry replaced shows no more, the
// last failed turn is what Retry sends, errors get the way out they call for, and the chat search.
import assert from "node:assert/strict";
import type { Chat, Message } from "../../../src/shared/chats";
import { filterChats } from "../../../webview/src/lib/chat-filter";
import { explainError } from "../../../webview/src/lib/error-words";
import { lastFailure, withoutRetried } from "../../../webview/src/lib/failed-turns";
import { messageFactory } from "../../helpers/stored-messages";

const stored = messageFactory();
/** A stored message; this file's tests name the status before the meta. */
const message = (
  role: Message["role"],
  content: string,
  status: Message["status"] = "complete",
  meta: Message["meta"] = null,
): Message => stored(role, content, meta, status);
const failedAnswer = () =>
  message("assistant", "", "error", { error: { message: "cannot reach the gateway", retryable: true } });

function chat(title: string, modelId: string | null = "fake/echo"): Chat {
  return {
    id: title,
    projectId: "p",
    title,
    promptId: null,
    cardPromptId: null,
    modelId,
    agent: null,
    tools: null,
    agentFiles: null,
    skills: null,
    leafId: null,
    worktreeBranch: null,
    createdAt: "",
    updatedAt: "",
  };
}

describe("chat view: failed turns and Retry", () => {
  it("leaves out a failed attempt that a later send of the same text replaced", () => {
    const first = message("user", "hello");
    const failed = failedAnswer();
    const again = message("user", "hello");
    const answer = message("assistant", "You said: hello");
    assert.deepEqual(
      withoutRetried([first, failed, again, answer]).map((m) => m.id),
      [again.id, answer.id],
    );
  });

  it("keeps a failed turn followed by a different message, and one that is not failed", () => {
    const messages = [
      message("user", "a"),
      failedAnswer(),
      message("user", "b"),
      message("assistant", "ok"),
      message("user", "b"),
      message("assistant", "ok again"),
    ];
    assert.equal(withoutRetried(messages).length, messages.length);
  });

  it("hides the last failed turn while the same text is being sent again, files and all", () => {
    const earlier = [message("user", "x"), message("assistant", "y")];
    const file = message("user", "file text", "complete", { kind: "file", path: "a.ts" });
    const text = message("user", "look", "complete", { referencedPaths: ["a.ts"] });
    const failed = failedAnswer();
    const all = [...earlier, file, text, failed];
    assert.deepEqual(withoutRetried(all, "look"), earlier);
    assert.deepEqual(withoutRetried(all, "other"), all);
    assert.deepEqual(lastFailure(all), { content: "look", referencedPaths: ["a.ts"], answerId: failed.id });
  });

  it("finds no failure to retry when the last turn ended well", () => {
    assert.equal(
      lastFailure([message("user", "a"), failedAnswer(), message("user", "b"), message("assistant", "fine")]),
      undefined,
    );
    assert.equal(lastFailure([]), undefined);
  });

  it("offers Settings, Providers for a missing key or an unreachable gateway, and another model otherwise", () => {
    const noKey = explainError({
      status: 400,
      message: 'no key for provider "gateway": paste an API key or sign in under Settings, Providers',
    });
    assert.deepEqual([noKey.settings, noKey.model], [true, false]);
    const unreachable = explainError({ message: "cannot reach the gateway (ECONNREFUSED)" });
    assert.deepEqual([unreachable.settings, unreachable.model], [true, false]);
    const missing = explainError({ status: 404, message: "The model `x` does not exist." });
    assert.deepEqual([missing.settings, missing.model], [false, true]);
    assert.equal(explainError({ status: 401, message: "Unauthorized" }).settings, true);
  });
});

describe("chat view: searching chats", () => {
  const chats = [chat("Fix the parser"), chat("Parser tests", "vendor/big"), chat("Lunch")];

  it("matches every word of the query in the title or model, in any case", () => {
    assert.deepEqual(
      filterChats(chats, "PARSER").map((c) => c.title),
      ["Fix the parser", "Parser tests"],
    );
    assert.deepEqual(
      filterChats(chats, "parser big").map((c) => c.title),
      ["Parser tests"],
    );
    assert.deepEqual(filterChats(chats, "nothing"), []);
  });

  it("shows every chat for an empty query", () => {
    assert.equal(filterChats(chats, "  "), chats);
  });
});
