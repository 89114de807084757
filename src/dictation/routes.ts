// POST /api/dictation/transcribe: multipart `audio` (and optional `modelId`) in; the transcript,
// the model and route used, and what it cost (also recorded in the usage ledger) out.
import type { Router, Request } from "express";
import { routeRouter } from "../platform/http/router";
import busboy from "busboy";
import { AppError, invalid } from "../platform/app-error";
import { MAX_AUDIO_BYTES } from "../shared/dictation";
import type { Audio } from "../gateway/transcription";
import type { Dictation } from "./dictation";
import type { SettingsService } from "../settings/settings-service";
import { uploadRoute } from "../platform/http/define-route";
import { upstreamCall } from "../chat/upstream-call";

const TOO_LARGE = `the recording is larger than ${MAX_AUDIO_BYTES / 1024 / 1024} MB, the most one transcription takes; dictate in shorter pieces`;
/**
 * The server has no request timeout (streams are long-lived), so an upload that stops arriving is
 * given up after this long without a byte: it would otherwise hold its buffered audio forever.
 */
export const UPLOAD_IDLE_MS = 30_000;

const UNREADABLE = "the multipart body is cut off or malformed; send it again in full";

function readUpload(req: Request, idleMs: number): Promise<{ audio?: Audio; modelId?: string }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // busboy reports the limit when a file reaches it: one byte more lets exactly 25 MB through.
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_AUDIO_BYTES + 1, files: 1, fields: 4 } });
    } catch {
      reject(invalid("send the audio as multipart/form-data"));
      return;
    }
    const result: { audio?: Audio; modelId?: string } = {};
    let tooLarge = false;
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    const settle = (error?: AppError) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      req.off("data", stillArriving);
      req.unpipe(parser);
      if (!error) return resolve(result);
      // Lets go of the buffered parts now; what the parser and its streams report after this is
      // heard (below) and ignored: the answer is already decided.
      parser.destroy();
      reject(error);
    };
    const unreadable = () => settle(invalid(UNREADABLE));
    const stillArriving = () => {
      clearTimeout(idle);
      idle = setTimeout(
        () => settle(invalid(`the recording stopped arriving (nothing for ${idleMs / 1000} s); try again`)),
        idleMs,
      );
    };
    req.on("data", stillArriving);
    // A client that goes away mid-body: nothing more will come, and nobody waits for the answer.
    req.on("close", () => {
      if (!req.complete) settle(invalid("the upload was cut off before it ended"));
    });
    parser.on("field", (name, value) => {
      if (name === "modelId" && value) result.modelId = value;
    });
    parser.on("file", (name, stream, info) => {
      // A body cut off inside a part fails that part's stream ("Unexpected end of form"): an 'error'
      // nobody hears would end the process, so every file stream, read or skipped, has a listener.
      stream.on("error", unreadable);
      if (name !== "audio") return stream.resume();
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => (tooLarge = true));
      stream.on("end", () => {
        result.audio = {
          bytes: Buffer.concat(chunks),
          mimeType: info.mimeType,
          fileName: info.filename ?? "audio.wav",
        };
      });
    });
    parser.on("error", unreadable);
    parser.on("close", () => {
      if (tooLarge) settle(new AppError("payload_too_large", TOO_LARGE));
      else settle();
    });
    stillArriving();
    req.pipe(parser);
  });
}

export function dictationRoutes(deps: {
  settings: SettingsService;
  dictation: Dictation;
  uploadIdleMs?: number;
}): Router {
  const router = routeRouter();
  uploadRoute(router, "POST /api/dictation/transcribe", async ({ req, res }) => {
    const upload = await readUpload(req, deps.uploadIdleMs ?? UPLOAD_IDLE_MS).catch((error: unknown) => {
      // Given up before the body ended: answer, then close rather than read the rest.
      if (!req.complete) res.setHeader("connection", "close");
      throw error;
    });
    if (!upload.audio || upload.audio.bytes.length === 0) throw invalid("the `audio` file is missing or empty");
    const settings = await deps.settings.resolvedUnredacted();
    return upstreamCall(() => deps.dictation.transcribe(settings, upload.audio!, upload.modelId));
  });
  return router;
}
