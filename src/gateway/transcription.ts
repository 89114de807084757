// Speech to text, two routes: transcription-slice models take multipart audio at
// {base}/audio/transcriptions; audio-input chat models take an inline `input_audio` part at
// {base}/chat/completions (the transcription endpoint answers 400 "model does not exist" for them).
import { gatewayRequest, loadUndici, UpstreamError, upstreamFailure, type GatewayConnection } from "./http";

export type Audio = { bytes: Buffer; mimeType: string; fileName: string };

/** The transcript, and the upstream's `usage` object as it came (its shape differs by route and server). */
export type Heard = { text: string; usage: unknown };

const TRANSCRIBE_INSTRUCTION = "Transcribe this audio verbatim. Reply with the transcript only, no commentary.";

/** The `format` of an input_audio part, from the upload's type or name. */
export function audioFormat(audio: Pick<Audio, "mimeType" | "fileName">): string {
  const fromName = audio.fileName.split(".").pop()?.toLowerCase();
  const fromType = audio.mimeType.split(";")[0]!.split("/")[1]?.toLowerCase();
  const candidate =
    fromType === "mpeg" ? "mp3" : fromType === "x-wav" || fromType === "wave" ? "wav" : (fromType ?? fromName ?? "wav");
  return ["wav", "mp3", "webm", "ogg", "flac", "m4a", "aac"].includes(candidate) ? candidate : (fromName ?? "wav");
}

async function okJson(
  connection: GatewayConnection,
  path: string,
  response: Awaited<ReturnType<typeof gatewayRequest>>,
): Promise<Record<string, unknown>> {
  const text = await response.body.text();
  if (response.statusCode < 200 || response.statusCode >= 300)
    throw upstreamFailure(connection, path, response.statusCode, text);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new UpstreamError(502, "the gateway answered with something that is not JSON");
  }
}

export async function transcribeMultipart(connection: GatewayConnection, model: string, audio: Audio): Promise<Heard> {
  const { FormData } = await loadUndici();
  const form = new FormData();
  form.set("model", model);
  form.set("file", new Blob([new Uint8Array(audio.bytes)], { type: audio.mimeType }), audio.fileName);
  const body = await okJson(
    connection,
    "/audio/transcriptions",
    await gatewayRequest(connection, "/audio/transcriptions", { method: "POST", body: form }),
  );
  if (typeof body.text !== "string") throw new UpstreamError(502, "the gateway's transcription had no text");
  return { text: body.text, usage: body.usage };
}

export async function transcribeWithChat(connection: GatewayConnection, model: string, audio: Audio): Promise<Heard> {
  const payload = {
    model,
    stream: false,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: TRANSCRIBE_INSTRUCTION },
          { type: "input_audio", input_audio: { data: audio.bytes.toString("base64"), format: audioFormat(audio) } },
        ],
      },
    ],
  };
  const body = await okJson(
    connection,
    "/chat/completions",
    await gatewayRequest(connection, "/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    }),
  );
  const choice = Array.isArray(body.choices) ? (body.choices[0] as { message?: { content?: unknown } }) : undefined;
  const content = choice?.message?.content;
  if (typeof content !== "string") throw new UpstreamError(502, "the gateway's answer had no transcript");
  return { text: content.trim(), usage: body.usage };
}
