// The name of an exported chat's file. Pure.
import type { ExportFormat } from "../../shared/chat-export";

const MAX_NAME_CHARS = 80;

/**
 * A file name from the chat's title: characters file systems refuse (and control characters) become
 * spaces, leading dots go (no hidden file), at most 80 characters (whole ones, never half an emoji);
 * "chat" when nothing is left.
 */
export function exportFileName(title: string, format: ExportFormat): string {
  const cleaned = title
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^\.+/, "");
  const base = [...cleaned].slice(0, MAX_NAME_CHARS).join("").trim() || "chat";
  return `${base}.${format === "json" ? "json" : "md"}`;
}
