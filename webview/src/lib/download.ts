// Saving a file the server sent as an attachment: its name from Content-Disposition (RFC 6266), and
// the browser's download of it. The name's parsing is pure.

/** The file name a Content-Disposition header gives (`filename*` in UTF-8 first), or `fallback`. */
export function attachmentName(header: string | null, fallback = "download"): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed escape: the plain name, if there is one.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(header);
  if (quoted) return quoted[1]!.replace(/\\(.)/g, "$1");
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(header);
  return bare ? bare[1]! : fallback;
}

/**
 * Hands `blob` to the browser's download as `fileName` (VS Code's webview lets its frame download
 * too). The object URL is kept a moment: revoking it at once can cancel the download in Chromium.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
