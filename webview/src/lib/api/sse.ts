// Server-sent events on the client: reading a fetch body as SSE, and checking each event against
// its shared schema, so the UI never acts on a shape the server did not promise.
import { createParser } from "eventsource-parser";
import { appEventSchemas, type AppEvent, type AppEventName } from "$shared/app-events";
import { streamEventSchemas, type StreamEvent, type StreamEventName } from "$shared/stream-events";

/** Feeds a `text/event-stream` body to `onEvent` (JSON-decoded data) until it ends. */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onEvent: (name: string, data: unknown, id?: string) => void,
): Promise<void> {
  const parser = createParser({
    onEvent: (e) => {
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch {
        return; // an event that is not JSON carries nothing the UI can show
      }
      onEvent(e.event ?? "message", data, e.id);
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
  }
}

const isStreamEventName = (name: string): name is StreamEventName => Object.hasOwn(streamEventSchemas, name);
const isAppEventName = (name: string): name is AppEventName => Object.hasOwn(appEventSchemas, name);

/** A chat stream event, or undefined for an unknown name or a malformed payload (logged, then skipped). */
export function readStreamEvent(name: string, data: unknown): StreamEvent | undefined {
  if (!isStreamEventName(name)) return undefined;
  const parsed = streamEventSchemas[name].safeParse(data);
  if (!parsed.success) return void console.warn(`Parley: ignored a malformed "${name}" event`, parsed.error.issues);
  return { event: name, data: parsed.data } as StreamEvent;
}

/** An app-wide change event, or undefined for an unknown name or a malformed payload. */
export function readAppEvent(name: string, data: unknown): AppEvent | undefined {
  if (!isAppEventName(name)) return undefined;
  const parsed = appEventSchemas[name].safeParse(data);
  if (!parsed.success) return void console.warn(`Parley: ignored a malformed "${name}" event`, parsed.error.issues);
  return { type: name, data: parsed.data } as AppEvent;
}
