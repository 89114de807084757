// The conversation part of an upstream request, as tests about something else want to compare it:
// without the environment system message (contract 7.3: sent by default) and with cache-marked
// content parts read back as plain text.
type WireMessage = { role: string; content: unknown; [key: string]: unknown };

export function plainContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  if (!content.every((p) => (p as { type?: unknown }).type === "text")) return content;
  return content.map((p) => (p as { text: string }).text).join("");
}

export function conversation(messages: readonly WireMessage[]): WireMessage[] {
  return messages
    .filter((m) => !(m.role === "system" && String(plainContent(m.content)).startsWith("Environment:")))
    .map((m) => ({ ...m, content: plainContent(m.content) }));
}
