// Reads a server-sent event stream from a fetch Response, with a spec-compliant parser.
import { createParser } from "eventsource-parser";

export type ReceivedEvent = { id?: string; event: string; data: any };

/** Reads events until the stream ends, or until `stopWhen` returns true for an event. */
export async function readEvents(
  response: Response,
  onEvent?: (event: ReceivedEvent) => void,
): Promise<ReceivedEvent[]> {
  const events: ReceivedEvent[] = [];
  const parser = createParser({
    onEvent(e) {
      const event = { id: e.id, event: e.event ?? "message", data: JSON.parse(e.data) };
      events.push(event);
      onEvent?.(event);
    },
  });
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  return events;
}

/**
 * The events' names, leaving out the context meter's `context` events: they come after `turn.start`
 * and around each step, and test/integration/context-meter.test.ts checks where.
 */
export const names = (events: ReceivedEvent[]) => events.filter((e) => e.event !== "context").map((e) => e.event);
export const text = (events: ReceivedEvent[]) =>
  events
    .filter((e) => e.event === "text.delta")
    .map((e) => e.data.text)
    .join("");
