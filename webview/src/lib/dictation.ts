// Pure rules of dictation in the UI: where a transcript goes in the draft, how the recording time
// and microphone level read, which format to record for a model, the keyboard shortcut, and what
// each failure says with the way out of it.
import { MAX_AUDIO_BYTES } from "$shared/dictation";
import { ApiError } from "./api/client";

/** Start and stop dictation from anywhere in a chat; Escape cancels while recording. */
export const DICTATION_SHORTCUT = { label: "Ctrl+Shift+Space", aria: "Control+Shift+Space" } as const;

/** Where the UI stops recording on its own: a little under the route's limit, for the container's last bytes. */
export const RECORDING_BYTE_LIMIT = MAX_AUDIO_BYTES - 256 * 1024;

type Keys = Pick<KeyboardEvent, "key" | "code" | "ctrlKey" | "shiftKey" | "altKey" | "metaKey">;

export function isDictationShortcut(event: Keys): boolean {
  return (
    (event.code === "Space" || event.key === " ") && event.ctrlKey && event.shiftKey && !event.altKey && !event.metaKey
  );
}

/**
 * The draft with `text` inserted at the caret (the end of a selection, which is kept: dictation
 * never deletes what was typed), a space either side where words would otherwise touch, and where
 * the caret goes after it.
 */
export function insertAtCaret(
  draft: string,
  selectionStart: number,
  selectionEnd: number,
  text: string,
): { value: string; caret: number } {
  const words = text.trim();
  const at = Math.max(0, Math.min(draft.length, Math.max(selectionStart, selectionEnd)));
  if (!words) return { value: draft, caret: at };
  const before = draft.slice(0, at);
  const after = draft.slice(at);
  const lead = before && !/\s$/.test(before) ? " " : "";
  const trail = after && !/^[\s.,;:!?)\]}]/.test(after) ? " " : "";
  const inserted = `${lead}${words}${trail}`;
  return { value: before + inserted + after, caret: before.length + inserted.length };
}

/** "0:07", "12:30", "1:02:03". */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}

/** The loudness of a frame of AnalyserNode time-domain bytes (128 is silence), 0…1, speech near the middle. */
export function levelOf(samples: ArrayLike<number>): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = (samples[i]! - 128) / 128;
    sum += v * v;
  }
  // RMS of speech sits around 0.05–0.3: scaled so that talking fills about half the meter.
  return Math.min(1, Math.sqrt(sum / samples.length) * 3);
}

export type RecordingFormat = "webm" | "wav";

/**
 * What to record for a model: WebM/Opus (small) for a transcription model when the browser can;
 * WAV otherwise, since audio-input chat models take WAV or MP3 but not WebM, and WAV is what every
 * route takes when the model's kind is not known.
 */
export function recordingFormat(
  modelId: string,
  transcriptionModels: ReadonlySet<string>,
  canRecordOpus: boolean,
): RecordingFormat {
  return canRecordOpus && transcriptionModels.has(modelId) ? "webm" : "wav";
}

export type ProblemAction =
  /** A link to Settings, Dictation. */
  | "settings"
  /** Send the same recording again (it was kept). */
  | "resend"
  /** Ask for the microphone again. */
  | "restart"
  /** VS Code: open this page in the browser. */
  | "browser";

export type DictationProblem = { message: string; actions: ProblemAction[] };

export type ProblemCause =
  | { kind: "vscode" }
  | { kind: "no-model" }
  | { kind: "no-microphone-api" }
  | { kind: "nothing-heard" }
  | { kind: "error"; error: unknown; phase: "microphone" | "transcribe" };

/** What went wrong in words, and the ways out of it. */
export function dictationProblem(cause: ProblemCause): DictationProblem {
  switch (cause.kind) {
    case "vscode":
      return {
        message: "VS Code's panels cannot use the microphone. Open Parley in your browser and dictate there.",
        actions: ["browser"],
      };
    case "no-model":
      return { message: "No speech-to-text model is chosen yet.", actions: ["settings"] };
    case "no-microphone-api":
      return {
        message:
          "This page cannot use a microphone: browsers allow it only on https or on this computer (localhost). Open Parley at its localhost address.",
        actions: [],
      };
    case "nothing-heard":
      return {
        message: "Nothing was heard. Check the microphone's level on the Dictation page, then try again.",
        actions: ["settings"],
      };
    case "error":
      return cause.phase === "microphone" ? microphoneProblem(cause.error) : transcribeProblem(cause.error);
  }
}

function microphoneProblem(error: unknown): DictationProblem {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") {
    return {
      message:
        "Parley is not allowed to use the microphone. Allow it for this site (the icon at the left of the address bar), then try again.",
      actions: ["restart"],
    };
  }
  if (name === "NotFoundError" || name === "OverconstrainedError" || name === "DevicesNotFoundError") {
    return {
      message: "No microphone was found. Connect one, or turn it on in the system's sound settings, then try again.",
      actions: ["restart"],
    };
  }
  if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") {
    return {
      message: "The microphone could not be started; another app may be using it. Close that app, then try again.",
      actions: ["restart"],
    };
  }
  return { message: `The microphone could not be started (${errorText(error)}). Try again.`, actions: ["restart"] };
}

function transcribeProblem(error: unknown): DictationProblem {
  if (error instanceof ApiError) {
    if (error.status === 413)
      return {
        message: "The recording is too long for one transcription (25 MB at most). Dictate in shorter pieces.",
        actions: [],
      };
    if (error.code === "upstream_error") {
      return {
        message: `The speech-to-text model failed: ${error.message}. The recording is kept: send it again, or choose another model.`,
        actions: ["resend", "settings"],
      };
    }
    if (error.status === 400) return { message: `${capitalize(error.message)}.`, actions: ["settings"] };
    return { message: `The transcription was refused: ${error.message}. The recording is kept.`, actions: ["resend"] };
  }
  return {
    message: `Parley's server did not answer (${errorText(error)}). The recording is kept: send it again.`,
    actions: ["resend"],
  };
}

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : String(error));
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1).replace(/\.$/, "");
