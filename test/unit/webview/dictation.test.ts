// The pure rules of dictation in the UI: the transcript at the caret, the recording time, the
// level meter, the recording format per model, the shortcut, and each failure in words with its way out.
import assert from "node:assert/strict";
import { ApiError } from "../../../webview/src/lib/api/client";
import {
  dictationProblem,
  formatElapsed,
  insertAtCaret,
  isDictationShortcut,
  levelOf,
  recordingFormat,
} from "../../../webview/src/lib/dictation";
import { concatSamples, downsample, encodeWav, wavBytes } from "../../../webview/src/lib/dictation-wav";

describe("dictation in the UI", () => {
  describe("insertAtCaret", () => {
    it("puts the transcript at the caret in the middle of a draft, spaced from the words either side", () => {
      const draft = "Please the tests";
      assert.deepEqual(insertAtCaret(draft, 6, 6, "run"), { value: "Please run the tests", caret: 10 });
      assert.deepEqual(insertAtCaret("Please  the tests", 7, 7, "run"), { value: "Please run the tests", caret: 10 });
      assert.deepEqual(insertAtCaret("Pleasethe", 6, 6, "run"), { value: "Please run the", caret: 11 });
    });

    it("adds no space before punctuation or at the ends of the draft, and trims the transcript", () => {
      assert.deepEqual(insertAtCaret("", 0, 0, "  hello world \n"), { value: "hello world", caret: 11 });
      assert.deepEqual(insertAtCaret("Hi", 2, 2, "there"), { value: "Hi there", caret: 8 });
      assert.deepEqual(insertAtCaret("end.", 0, 0, "The"), { value: "The end.", caret: 4 });
      assert.deepEqual(insertAtCaret("Say.", 3, 3, "hello"), { value: "Say hello.", caret: 9 });
    });

    it("keeps a selection (dictation never deletes typed text) and inserts after it", () => {
      assert.deepEqual(insertAtCaret("keep this", 0, 4, "and"), { value: "keep and this", caret: 8 });
    });

    it("leaves the draft alone for an empty transcript, and clamps a caret outside the text", () => {
      assert.deepEqual(insertAtCaret("draft", 2, 2, "   "), { value: "draft", caret: 2 });
      assert.deepEqual(insertAtCaret("draft", 99, 99, "more"), { value: "draft more", caret: 10 });
    });
  });

  it("formats the recording time as m:ss, and h:mm:ss past an hour", () => {
    assert.equal(formatElapsed(0), "0:00");
    assert.equal(formatElapsed(7_900), "0:07");
    assert.equal(formatElapsed(65_000), "1:05");
    assert.equal(formatElapsed(12 * 60_000 + 30_000), "12:30");
    assert.equal(formatElapsed(3_723_000), "1:02:03");
    assert.equal(formatElapsed(-5), "0:00");
  });

  it("reads silence as 0 and a loud signal as up to 1", () => {
    assert.equal(levelOf(new Uint8Array(512).fill(128)), 0);
    assert.equal(levelOf([]), 0);
    const loud = Uint8Array.from({ length: 512 }, (_, i) => (i % 2 ? 255 : 0));
    assert.equal(levelOf(loud), 1);
    const speech = Uint8Array.from({ length: 512 }, (_, i) => 128 + Math.round(20 * Math.sin(i / 5)));
    assert.ok(levelOf(speech) > 0.2 && levelOf(speech) < 0.6, String(levelOf(speech)));
  });

  it("records WebM/Opus only for transcription models in a browser that can, WAV otherwise", () => {
    const transcription = new Set(["openai/whisper-1"]);
    assert.equal(recordingFormat("openai/whisper-1", transcription, true), "webm");
    assert.equal(recordingFormat("openai/whisper-1", transcription, false), "wav");
    assert.equal(
      recordingFormat("google/gemini-2.5-flash", transcription, true),
      "wav",
      "chat models take WAV, not WebM",
    );
  });

  it("takes Ctrl+Shift+Space as the shortcut, and nothing else", () => {
    const keys = { key: " ", code: "Space", ctrlKey: true, shiftKey: true, altKey: false, metaKey: false };
    assert.equal(isDictationShortcut(keys), true);
    assert.equal(isDictationShortcut({ ...keys, shiftKey: false }), false);
    assert.equal(isDictationShortcut({ ...keys, altKey: true }), false);
    assert.equal(isDictationShortcut({ ...keys, key: "d", code: "KeyD" }), false);
  });

  describe("problems in words, with the way out", () => {
    const domError = (name: string) => Object.assign(new Error("browser said no"), { name });
    const mic = (name: string) => dictationProblem({ kind: "error", error: domError(name), phase: "microphone" });
    const upload = (error: unknown) => dictationProblem({ kind: "error", error, phase: "transcribe" });

    it("says a denied permission, a missing microphone and a busy one apart, each with Try again", () => {
      assert.match(mic("NotAllowedError").message, /not allowed to use the microphone.*Allow it for this site/);
      assert.match(mic("SecurityError").message, /not allowed/);
      assert.match(mic("NotFoundError").message, /No microphone was found/);
      assert.match(mic("NotReadableError").message, /another app may be using it/);
      assert.match(mic("Weird").message, /could not be started \(browser said no\)/);
      for (const name of ["NotAllowedError", "NotFoundError", "NotReadableError", "Weird"])
        assert.deepEqual(mic(name).actions, ["restart"]);
    });

    it("sends a missing model to the Dictation page, and VS Code to the browser", () => {
      assert.deepEqual(dictationProblem({ kind: "no-model" }).actions, ["settings"]);
      const vscode = dictationProblem({ kind: "vscode" });
      assert.match(vscode.message, /VS Code's panels cannot use the microphone/);
      assert.deepEqual(vscode.actions, ["browser"]);
      assert.match(dictationProblem({ kind: "no-microphone-api" }).message, /https or on this computer \(localhost\)/);
    });

    it("keeps the recording for Send again when the model or the server failed", () => {
      const failed = upload(new ApiError(502, "upstream_error", "the gateway answered 503: overloaded"));
      assert.match(failed.message, /speech-to-text model failed: the gateway answered 503: overloaded/);
      assert.deepEqual(failed.actions, ["resend", "settings"]);
      assert.deepEqual(upload(new TypeError("Failed to fetch")).actions, ["resend"]);
      assert.match(upload(new TypeError("Failed to fetch")).message, /server did not answer \(Failed to fetch\)/);
    });

    it("explains the size limit and the server's 400s", () => {
      assert.match(
        upload(new ApiError(413, "payload_too_large", "too big")).message,
        /too long for one transcription \(25 MB at most\)/,
      );
      const noModel = upload(
        new ApiError(400, "invalid_request", "choose a speech-to-text model on the Dictation page first"),
      );
      assert.equal(noModel.message, "Choose a speech-to-text model on the Dictation page first.");
      assert.deepEqual(noModel.actions, ["settings"]);
    });
  });

  describe("WAV", () => {
    it("writes a 16-bit mono PCM header and clipped samples", () => {
      const wav = encodeWav(Float32Array.from([0, 1, -1, 2]), 16_000);
      const view = new DataView(wav.buffer);
      const text = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4));
      assert.deepEqual([text(0), text(8), text(12), text(36)], ["RIFF", "WAVE", "fmt ", "data"]);
      assert.equal(wav.length, wavBytes(4));
      assert.equal(view.getUint32(4, true), wav.length - 8);
      assert.deepEqual(
        [view.getUint16(20, true), view.getUint16(22, true), view.getUint32(24, true), view.getUint16(34, true)],
        [1, 1, 16_000, 16],
      );
      assert.equal(view.getUint32(40, true), 8);
      assert.deepEqual(
        [0, 1, 2, 3].map((i) => view.getInt16(44 + i * 2, true)),
        [0, 32767, -32768, 32767],
      );
    });

    it("downsamples by averaging, and joins chunks in order", () => {
      assert.deepEqual([...downsample(Float32Array.from([1, 1, 1, 0, 0, 0]), 48_000, 16_000)], [1, 0]);
      const same = Float32Array.from([0.5]);
      assert.equal(downsample(same, 16_000, 16_000), same);
      assert.deepEqual([...concatSamples([Float32Array.from([1]), Float32Array.from([2, 3])])], [1, 2, 3]);
    });
  });
});
