// The host <-> webview protocol: one discriminated union per direction, so each side refuses what
// the other never sends.
import assert from "node:assert/strict";
import { hostToWebviewSchema, webviewToHostSchema } from "../../../src/shared/host-messages";
import { parseRoute, routeHash } from "../../../webview/src/lib/route";

describe("host messages", () => {
  it("accepts what the extension host sends the webview", () => {
    assert.ok(hostToWebviewSchema.safeParse({ type: "ready" }).success);
    assert.ok(hostToWebviewSchema.safeParse({ type: "openChat", chatId: "c1" }).success);
    assert.ok(hostToWebviewSchema.safeParse({ type: "navigate", hash: "#/settings/prompts" }).success);
    assert.ok(hostToWebviewSchema.safeParse({ type: "focusComposer" }).success);
    assert.ok(hostToWebviewSchema.safeParse({ type: "ready", open: { type: "focusComposer" } }).success);
  });

  it("refuses messages nobody sends, and known ones with the wrong fields", () => {
    assert.equal(hostToWebviewSchema.safeParse({ type: "refresh" }).success, false);
    assert.equal(hostToWebviewSchema.safeParse({ type: "openChat" }).success, false);
    assert.equal(hostToWebviewSchema.safeParse({ type: "navigate", hash: "javascript:alert(1)" }).success, false);
    assert.equal(webviewToHostSchema.safeParse({ type: "openFile", path: "a.ts" }).success, false);
    assert.equal(webviewToHostSchema.safeParse({ type: "openExternal", url: "not a url" }).success, false);
  });

  it("accepts what the webview sends the host", () => {
    assert.ok(webviewToHostSchema.safeParse({ type: "hello", origin: "vscode-webview://abc" }).success);
    assert.ok(
      webviewToHostSchema.safeParse({ type: "openExternal", url: "https://gateway.example/authorize?x=1" }).success,
    );
  });

  it("carries a worktree chat's diff request as the chat and one file, nothing more", () => {
    assert.ok(webviewToHostSchema.safeParse({ type: "openWorktreeDiff", chatId: "c1", path: "src/a.ts" }).success);
    assert.equal(webviewToHostSchema.safeParse({ type: "openWorktreeDiff", chatId: "c1" }).success, false);
    assert.equal(webviewToHostSchema.safeParse({ type: "openWorktreeDiff", chatId: "c1", path: "" }).success, false);
    assert.equal(webviewToHostSchema.safeParse({ type: "openWorktreeDiff", chatId: "", path: "a.ts" }).success, false);
    assert.equal(
      webviewToHostSchema.safeParse({ type: "openWorktreeDiff", chatId: "c1", path: "x".repeat(4097) }).success,
      false,
    );
  });

  it("navigates only to routes the UI knows, and back to the same hash", () => {
    assert.deepEqual(parseRoute("#/settings/prompts"), { view: "settings", tab: "prompts" });
    assert.deepEqual(parseRoute("#/settings/mcp"), { view: "settings", tab: "mcp" });
    assert.deepEqual(parseRoute("#/settings/nope"), { view: "settings", tab: "providers" });
    assert.deepEqual(parseRoute("#/chat/c1"), { view: "chat", chatId: "c1" });
    // A link to a message of a chat (a search hit), and back to the same hash.
    assert.deepEqual(parseRoute("#/chat/c1/m/m_x-1"), { view: "chat", chatId: "c1", messageId: "m_x-1" });
    assert.equal(routeHash(parseRoute("#/chat/c1/m/m_x-1")), "#/chat/c1/m/m_x-1");
    assert.deepEqual(parseRoute("#/chat/c1/m/%E0%A4%A"), { view: "chat", chatId: "c1" }, "a broken escape is no id");
    assert.equal(routeHash(parseRoute("#/settings/defaults")), "#/settings/defaults");
  });

  it("keeps the old prompt deep link settings/prompts/<id>, and only there", () => {
    assert.deepEqual(parseRoute("#/settings/prompts/review"), { view: "settings", tab: "prompts", promptId: "review" });
    assert.deepEqual(parseRoute("#/settings/prompts/a%20b"), { view: "settings", tab: "prompts", promptId: "a b" });
    assert.deepEqual(
      parseRoute("#/settings/prompts/%E0%A4%A"),
      { view: "settings", tab: "prompts" },
      "a broken escape is no id",
    );
    assert.deepEqual(parseRoute("#/settings/mcp/review"), { view: "settings", tab: "mcp" });
    assert.equal(routeHash(parseRoute("#/settings/prompts/review")), "#/settings/prompts/review");
    assert.equal(routeHash({ view: "settings", tab: "prompts", promptId: "a b" }), "#/settings/prompts/a%20b");
  });
});
