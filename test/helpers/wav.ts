// Real audio for dictation tests: a WAV of a few tones (what Chromium's fake microphone plays, and
// what the fake gateway accepts as audio).
import fs from "node:fs";
import { encodeWav } from "../../webview/src/lib/dictation-wav";

/** A mono WAV of `seconds` of tones (a rising pair, so the level meter has something to show). */
export function toneWav(seconds = 1, sampleRate = 16_000): Uint8Array<ArrayBuffer> {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++) {
    const t = i / sampleRate;
    const frequency = t % 1 < 0.5 ? 440 : 660;
    samples[i] = 0.5 * Math.sin(2 * Math.PI * frequency * t);
  }
  return encodeWav(samples, sampleRate);
}

export function writeToneWav(file: string, seconds = 3): string {
  fs.writeFileSync(file, toneWav(seconds, 48_000));
  return file;
}
