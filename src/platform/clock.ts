// Timestamps as the spec wants them: ISO 8601 UTC.
export function nowIso(): string {
  return new Date().toISOString();
}
