// One dictation at a time: asking for the microphone, recording with its time and level, sending
// the audio to the server, and handing the transcript on; or what went wrong, with the recording
// kept when the server or the model failed so it can be sent again. The composer's microphone and
// the Dictation page's test recording each hold one.
import type { DictationResult } from "$shared/dictation";
import type { ApiClient } from "../api/client";
import {
  dictationProblem,
  RECORDING_BYTE_LIMIT,
  type DictationProblem,
  type ProblemCause,
  type RecordingFormat,
} from "../dictation";
import { microphoneApiAvailable, startRecording, type Recording } from "../dictation-recorder";

export type DictationPhase = "idle" | "starting" | "recording" | "transcribing";

export type DictationOptions = {
  /** The model to send with the audio; the server's `dictation` setting when it answers undefined. */
  modelId?: () => string | undefined;
  /** Receives each transcript. */
  deliver: (result: DictationResult) => void;
};

export class DictationSession {
  phase = $state<DictationPhase>("idle");
  elapsedMs = $state(0);
  level = $state(0);
  problem = $state.raw<DictationProblem | undefined>();
  /** Said once, beside the result: the recording stopped itself at the size limit. */
  notice = $state<string | undefined>();
  private recording: Recording | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private startedAt = 0;
  /** The last recording whose transcription failed, for "Send again". */
  private kept: Blob | undefined;
  private upload: AbortController | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly options: DictationOptions,
  ) {}

  get active(): boolean {
    return this.phase !== "idle";
  }

  get canResend(): boolean {
    return this.kept !== undefined && this.phase === "idle";
  }

  /** Shows a problem found before recording (no model, VS Code). */
  fail(cause: ProblemCause): void {
    this.problem = dictationProblem(cause);
  }

  dismiss(): void {
    this.problem = undefined;
    this.notice = undefined;
  }

  async start(format: RecordingFormat | (() => Promise<RecordingFormat>)): Promise<void> {
    if (this.phase !== "idle") return;
    this.dismiss();
    if (!microphoneApiAvailable()) return this.fail({ kind: "no-microphone-api" });
    this.phase = "starting";
    this.elapsedMs = 0;
    let recording: Recording;
    try {
      recording = await startRecording(typeof format === "function" ? await format() : format);
    } catch (error) {
      if (this.phase === "starting") this.phase = "idle";
      return this.fail({ kind: "error", error, phase: "microphone" });
    }
    if (this.phase !== "starting") {
      // Cancelled while the browser was asking for the microphone.
      recording.cancel();
      return;
    }
    this.recording = recording;
    this.kept = undefined;
    this.phase = "recording";
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.tick(), 100);
  }

  private tick(): void {
    const recording = this.recording;
    if (!recording) return;
    this.elapsedMs = performance.now() - this.startedAt;
    this.level = recording.level();
    if (recording.bytes() >= RECORDING_BYTE_LIMIT) {
      this.notice =
        "Dictation stopped at 25 MB, the most one transcription takes; what was said so far is transcribed.";
      void this.stop();
    }
  }

  /** Stops recording and transcribes what was recorded. */
  async stop(): Promise<void> {
    const recording = this.recording;
    if (!recording || this.phase !== "recording") return;
    this.endRecording();
    this.phase = "transcribing";
    let audio: Blob;
    try {
      audio = await recording.stop();
    } catch (error) {
      // The recorder failed to hand over what it had: say so, never stay on "Transcribing…".
      if (this.phase === "transcribing") {
        this.phase = "idle";
        this.fail({ kind: "error", error, phase: "microphone" });
      }
      return;
    }
    if (this.phase !== "transcribing") return;
    await this.send(audio);
  }

  /** Sends the kept recording again. */
  async resend(): Promise<void> {
    const audio = this.kept;
    if (!audio || this.phase !== "idle") return;
    this.dismiss();
    this.phase = "transcribing";
    await this.send(audio);
  }

  /** Discards the recording (or the transcription under way): nothing reaches the draft. */
  cancel(): void {
    this.recording?.cancel();
    this.endRecording();
    this.upload?.abort();
    this.upload = undefined;
    this.phase = "idle";
  }

  private endRecording(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.recording = undefined;
    this.level = 0;
  }

  private async send(audio: Blob): Promise<void> {
    const upload = (this.upload = new AbortController());
    const modelId = this.options.modelId?.();
    try {
      const result = await this.api.upload(
        "POST /api/dictation/transcribe",
        { audio, ...(modelId ? { modelId } : {}) },
        { fileName: audio.type.startsWith("audio/webm") ? "dictation.webm" : "dictation.wav", signal: upload.signal },
      );
      if (upload.signal.aborted) return;
      this.kept = undefined;
      if (!result.text.trim()) this.fail({ kind: "nothing-heard" });
      this.options.deliver(result);
    } catch (error) {
      if (upload.signal.aborted) return;
      this.kept = audio;
      this.fail({ kind: "error", error, phase: "transcribe" });
    } finally {
      if (this.upload === upload) {
        this.upload = undefined;
        this.phase = "idle";
      }
    }
  }

  dispose(): void {
    this.cancel();
  }
}
