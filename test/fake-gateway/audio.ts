// The fake's speech to text: a fixed transcript (so tests and people trying the UI see the same
// words whatever they said), audio that must really be audio in a format the route takes, and
// usage priced from the catalog as the gateway reports it.
import type { RawModel } from "./catalog";

export const FAKE_TRANSCRIPT = "hello from the fake microphone";

export type AudioContainer = "wav" | "webm" | "ogg" | "mp3" | "flac" | "m4a";

/** The container the bytes start with, by their magic numbers; undefined for anything else. */
export function audioContainer(bytes: Buffer): AudioContainer | undefined {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString("latin1");
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WAVE") return "wav";
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return "webm";
  if (ascii(0, 4) === "OggS") return "ogg";
  if (ascii(0, 4) === "fLaC") return "flac";
  if (ascii(4, 8) === "ftyp") return "m4a";
  if (ascii(0, 3) === "ID3" || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) return "mp3";
  return undefined;
}

/** `input_audio` formats chat models take through the gateway (WebM is not one of them). */
export const INPUT_AUDIO_FORMATS: readonly string[] = [
  "wav",
  "mp3",
  "flac",
  "m4a",
  "ogg",
  "aiff",
  "aac",
  "pcm16",
  "pcm24",
];

/** About one audio token per 100 bytes: deterministic, and it grows with the recording. */
export function audioTokens(bytes: Buffer): number {
  return Math.max(1, Math.ceil(bytes.length / 100));
}

export function priced(model: RawModel, promptTokens: number, completionTokens: number): number {
  return promptTokens * Number(model.pricing.prompt) + completionTokens * Number(model.pricing.completion);
}
