// The oldest Node that runs Parley: better-sqlite3 13 needs Node-API 10 and crashes (a segmentation
// fault, no message) on older runtimes, so the CLI checks before it loads anything native.

export const MIN_NODE = { major: 22, minor: 14 } as const;

/** The line to print and exit on, or undefined when `version` (e.g. `20.20.2`, `v24.1.0`) is new enough. */
export function unsupportedNodeMessage(version: string): string | undefined {
  const [major = 0, minor = 0] = version.replace(/^v/, "").split(".").map(Number);
  if (major > MIN_NODE.major || (major === MIN_NODE.major && minor >= MIN_NODE.minor)) return undefined;
  return `parley needs Node >= ${MIN_NODE.major}.${MIN_NODE.minor}; this is ${version.replace(/^v/, "")}`;
}
