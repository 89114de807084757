// Why an approval asks although the tool is allowed (contract 7.5), in the words the pinned
// approval shows and a screen reader hears.
import assert from "node:assert/strict";
import type { StreamEvent } from "../../../src/shared/stream-events";
import { approvalReasonText, approvalReasonTexts } from "../../../webview/src/lib/approval-reasons";
import { emptyTurn, reduceTurn, waitingCards } from "../../../webview/src/lib/live-turn";
import { serverNames } from "../../../webview/src/lib/tool-titles";
import { waitingAnnouncement } from "../../../webview/src/lib/waiting";

const names = serverNames([{ id: "calc", name: "Calc" }]);
const untrusted = (tool: string) => ({ kind: "untrusted_input" as const, source: { tool, callId: "call_1" } });

describe("approval reasons in words", () => {
  it("names the untrusted input the turn read: an MCP tool by its server's name, or a web page", () => {
    assert.equal(
      approvalReasonText(untrusted("mcp__calc__get-sum"), names),
      "Asks because this turn read the output of Calc › get-sum (an MCP tool).",
    );
    assert.equal(
      approvalReasonText(untrusted("mcp__fs__read"), names),
      "Asks because this turn read the output of fs › read (an MCP tool).",
    );
    assert.equal(
      approvalReasonText(untrusted("web_fetch")),
      "Asks because this turn read the output of web_fetch (a web page).",
    );
  });

  it("says what would run a protected file", () => {
    const said = (path: string, rule: any) => approvalReasonText({ kind: "protected_path", path, rule });
    assert.equal(
      said("package.json", "package_scripts"),
      "Asks because it changes package.json scripts, which run on npm install/test.",
    );
    assert.equal(
      said(".vscode/tasks.json", "editor"),
      "Asks because it changes .vscode/tasks.json, which VS Code uses to run tasks and apply settings.",
    );
    assert.equal(
      said(".github/workflows/ci.yml", "ci"),
      "Asks because it changes .github/workflows/ci.yml, which GitHub runs with the repository's secrets.",
    );
    assert.match(said(".husky/pre-commit", "git_hooks"), /git hook/);
    assert.match(said(".zshrc", "shell_startup"), /a shell runs when it starts/);
    assert.match(said("web/.envrc", "shell_startup"), /direnv runs in its folder/);
    assert.match(said(".npmrc", "package_manager"), /npm or yarn/);
  });

  it("gives every reason, and none when only the gate asks", () => {
    assert.deepEqual(approvalReasonTexts(undefined), []);
    assert.equal(
      approvalReasonTexts([untrusted("web_fetch"), { kind: "protected_path", path: ".bashrc", rule: "shell_startup" }])
        .length,
      2,
    );
  });

  it("keeps the reasons on the waiting card, and announces them after the question", () => {
    const events: StreamEvent[] = [
      { event: "turn.start", data: { turnId: "t1", messageId: "m", model: "fake/tools" } },
      { event: "tool.call", data: { callId: "c2", name: "shell", arguments: { cmd: "curl x" } } },
      {
        event: "tool.approval",
        data: { callId: "c2", name: "shell", arguments: { cmd: "curl x" }, reasons: [untrusted("mcp__calc__get-sum")] },
      },
    ];
    const [card] = waitingCards(events.reduce(reduceTurn, emptyTurn()));
    assert.deepEqual(card!.ask, { kind: "approval", reasons: [untrusted("mcp__calc__get-sum")] });
    assert.equal(
      waitingAnnouncement(card!, names),
      "Parley is waiting for you: allow shell on curl x? Asks because this turn read the output of Calc › get-sum (an MCP tool).",
    );
  });
});
