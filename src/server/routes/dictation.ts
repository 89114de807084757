// POST /api/dictation/transcribe: multipart `audio` (and optional `modelId`) in, transcript out.
import type { Router, Request } from "express";
import { routeRouter } from "./router";
import busboy from "busboy";
import { AppError, invalid } from "../../core/app-error";
import type { Audio } from "../../providers/gateway/transcription";
import type { Dictation } from "../../services/dictation";
import type { SettingsService } from "../../services/settings-service";
import { upstreamCall } from "./upstream-call";

export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

function readUpload(req: Request): Promise<{ audio?: Audio; modelId?: string }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_AUDIO_BYTES, files: 1, fields: 4 } });
    } catch {
      reject(invalid("send the audio as multipart/form-data"));
      return;
    }
    const result: { audio?: Audio; modelId?: string } = {};
    let tooLarge = false;
    parser.on("field", (name, value) => {
      if (name === "modelId" && value) result.modelId = value;
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "audio") return stream.resume();
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => (tooLarge = true));
      stream.on("end", () => {
        result.audio = { bytes: Buffer.concat(chunks), mimeType: info.mimeType, fileName: info.filename ?? "audio.wav" };
      });
    });
    parser.on("error", () => reject(invalid("the multipart body could not be read")));
    parser.on("close", () => (tooLarge ? reject(new AppError("payload_too_large", "the audio is larger than 25 MB")) : resolve(result)));
    req.pipe(parser);
  });
}

export function dictationRoutes(deps: { settings: SettingsService; dictation: Dictation }): Router {
  return routeRouter().post("/api/dictation/transcribe", async (req, res) => {
    const upload = await readUpload(req);
    if (!upload.audio || upload.audio.bytes.length === 0) throw invalid("the `audio` file is missing or empty");
    const settings = await deps.settings.resolvedUnredacted();
    res.json(await upstreamCall(() => deps.dictation.transcribe(settings, upload.audio!, upload.modelId)));
  });
}
