// The microphone, recorded: MediaRecorder's WebM/Opus, or 16 kHz WAV from Web Audio samples, with
// an AnalyserNode for the level meter either way. Browser I/O only; the rules live in dictation.ts.
import { levelOf, type RecordingFormat } from "./dictation";
import { concatSamples, downsample, encodeWav, WAV_SAMPLE_RATE, wavBytes } from "./dictation-wav";

const OPUS = "audio/webm;codecs=opus";

export interface Recording {
  readonly format: RecordingFormat;
  /** Bytes recorded so far (for the size limit). */
  bytes(): number;
  /** The microphone's loudness now, 0…1. */
  level(): number;
  /** Ends the recording and releases the microphone; resolves with the audio. */
  stop(): Promise<Blob>;
  /** Ends the recording, releases the microphone, keeps nothing. */
  cancel(): void;
}

/** Whether the page can ask for the microphone at all (browsers offer it on https and localhost only). */
export function microphoneApiAvailable(): boolean {
  return typeof navigator !== "undefined" && typeof navigator.mediaDevices?.getUserMedia === "function";
}

export function canRecordOpus(): boolean {
  return typeof MediaRecorder !== "undefined" && MediaRecorder.isTypeSupported(OPUS);
}

/** Opens the microphone (the browser may ask the user) and starts recording. */
export async function startRecording(format: RecordingFormat): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  });
  let context: AudioContext | undefined;
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
    void context?.close().catch(() => {});
  };
  // From here on the microphone is open: whatever fails must close it again, never leave it on.
  try {
    context = new AudioContext();
    // Created after an await, the context may start suspended; resuming inside the user's gesture chain starts it.
    await context.resume().catch(() => {});
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 1024;
    source.connect(analyser);
    const frame = new Uint8Array(analyser.fftSize);
    const level = () => {
      analyser.getByteTimeDomainData(frame);
      return levelOf(frame);
    };
    return format === "webm" ? opusRecording(stream, level, release) : wavRecording(context, source, level, release);
  } catch (error) {
    release();
    throw error;
  }
}

function opusRecording(stream: MediaStream, level: () => number, release: () => void): Recording {
  const recorder = new MediaRecorder(stream, { mimeType: OPUS });
  const chunks: Blob[] = [];
  let size = 0;
  recorder.ondataavailable = (event) => {
    chunks.push(event.data);
    size += event.data.size;
  };
  // A chunk a second, so the size limit is seen while recording, not only at the end.
  recorder.start(1000);
  return {
    format: "webm",
    bytes: () => size,
    level,
    stop: () =>
      new Promise<Blob>((resolve) => {
        recorder.onstop = () => {
          release();
          resolve(new Blob(chunks, { type: recorder.mimeType || OPUS }));
        };
        recorder.stop();
      }),
    cancel: () => {
      recorder.onstop = null;
      if (recorder.state !== "inactive") recorder.stop();
      release();
    },
  };
}

/**
 * Raw samples through a ScriptProcessorNode, encoded as WAV at the end. An AudioWorklet would be
 * the modern way, but it loads its processor from a module URL that the pages' CSP would have to allow.
 */
function wavRecording(
  context: AudioContext,
  source: MediaStreamAudioSourceNode,
  level: () => number,
  release: () => void,
): Recording {
  const processor = context.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  let samples = 0;
  processor.onaudioprocess = (event) => {
    const input = event.inputBuffer.getChannelData(0);
    chunks.push(new Float32Array(input));
    samples += input.length;
  };
  source.connect(processor);
  // A processor only runs while connected to the output; it writes nothing, so nothing is heard.
  processor.connect(context.destination);
  const end = () => {
    processor.onaudioprocess = null;
    processor.disconnect();
    source.disconnect();
    release();
  };
  return {
    format: "wav",
    bytes: () => wavBytes(Math.floor((samples * WAV_SAMPLE_RATE) / context.sampleRate)),
    level,
    stop: async () => {
      const rate = context.sampleRate;
      end();
      return new Blob(
        [encodeWav(downsample(concatSamples(chunks), rate, WAV_SAMPLE_RATE), Math.min(rate, WAV_SAMPLE_RATE))],
        { type: "audio/wav" },
      );
    },
    cancel: end,
  };
}
