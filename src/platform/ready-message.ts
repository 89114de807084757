// The line `parley serve` logs for people once it listens. The login link holds the per-start token,
// which lets whoever has it use the API (run tools included), so the link is shown only on a terminal,
// to the person who started the server: where stderr is captured (a file, journald, CI), the line
// points to the ready line on stdout instead. That line, which clients read, is then the token's
// only copy; whoever captures stdout too (journald does) holds it there.

export function readyMessage(version: string, url: string, token: string, toTerminal: boolean): string {
  return toTerminal
    ? `Parley ${version} is ready. Open ${url}/?token=${encodeURIComponent(token)}`
    : `Parley ${version} is ready at ${url}. The login link is <url>/?token=<token>, both from the ready line on stdout (stderr never holds the token)`;
}
