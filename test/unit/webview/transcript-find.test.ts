import assert from "node:assert/strict";
import { findInTranscript } from "../../../webview/src/lib/transcript-find";
import { transcriptItems } from "../../../webview/src/lib/transcript";
import { messageFactory } from "../../helpers/stored-messages";

describe("find in chat", () => {
  const message = messageFactory();
  const items = transcriptItems([
    message("user", "Where is the Owl?"),
    message("assistant", "", { toolCalls: [{ id: "c1", name: "shell", arguments: '{"cmd":"grep owl"}' }] }),
    message("tool", JSON.stringify({ output: "zoo/owl.txt: the owl sleeps", exitCode: 0 }), {
      callId: "c1",
      name: "shell",
      ok: true,
      arguments: { cmd: "grep owl" },
    }),
    message("assistant", "The owl\n  sleeps in the zoo."),
  ]);

  it("finds messages and tool cards, case and spacing aside, in order", () => {
    const found = findInTranscript(items, "OWL sleeps");
    assert.equal(found.length, 2);
    const kinds = found.map((key) => items.find((item) => item.key === key)!.kind);
    assert.deepEqual(kinds, ["tool", "assistant"]);
    assert.equal(findInTranscript(items, "where is").length, 1);
  });

  it("finds nothing for an empty query or a missing word", () => {
    assert.deepEqual(findInTranscript(items, "  "), []);
    assert.deepEqual(findInTranscript(items, "penguin"), []);
  });
});
