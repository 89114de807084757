// What `web_fetch` does with a body, by its type (contract 7.5): HTML becomes markdown, other text is
// returned as text, and binary types (images, archives, PDFs…) are refused before their body is read.
// A body without a type is judged by its first bytes. Pure.

export type ContentKind = "html" | "text" | "binary";

/** Application types that are text under another name. */
const TEXT_APPLICATION_TYPES: ReadonlySet<string> = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/x-sh",
  "application/x-httpd-php",
  "application/sql",
  "application/graphql",
  "application/toml",
  "application/yaml",
  "application/x-yaml",
  "application/x-ndjson",
  "application/csv",
  "application/rtf",
  "application/x-tex",
  "application/x-subrip",
]);

/** `text/html; charset=utf-8` → `text/html`. */
export function mediaType(contentType: string | null): string | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type || undefined;
}

/** The kind a declared type stands for; undefined for no type (the body decides). */
export function declaredKind(contentType: string | null): ContentKind | undefined {
  const type = mediaType(contentType);
  if (!type) return undefined;
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type.startsWith("text/") || TEXT_APPLICATION_TYPES.has(type)) return "text";
  // Structured syntax suffixes: application/ld+json, image/svg+xml, application/atom+xml…
  if (/\+(json|xml|yaml)$/.test(type)) return "text";
  return "binary";
}

/** The kind of an untyped body, from its start: markup is HTML, a NUL byte or broken UTF-8 is binary. */
export function sniffKind(head: Uint8Array): ContentKind {
  const sample = head.subarray(0, 1024);
  if (sample.includes(0)) return "binary";
  // A multibyte character cut at the sample's end is not a fault of the body: only earlier ones count.
  const text = new TextDecoder("utf-8").decode(sample, { stream: true });
  if (text.includes("\uFFFD")) return "binary";
  return /^\s*(<!doctype html|<html|<head|<body)/i.test(text) ? "html" : "text";
}

/** The body as text, in the charset its type names (UTF-8 when it names none, or one we cannot read). */
export function decodeText(body: Uint8Array, contentType: string | null): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "")?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** The most text one result gives the model (characters); a page is cut there, and says so. */
export const MAX_TEXT_CHARS = 128 * 1024;

/** The text as given to the model: whole, or its start with a line that says it was cut and why. */
export function capText(text: string, max = MAX_TEXT_CHARS): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  return {
    text: `${text.slice(0, max)}\n\n… [cut: the text goes on for ${text.length - max} more characters]`,
    cut: true,
  };
}
