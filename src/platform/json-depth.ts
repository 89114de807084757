// How deep a parsed JSON value nests, measured without recursion, so hostile input cannot overflow the
// stack here or later (merging, cloning and stringifying settings all recurse).

/** Deeper than any real settings file or request body; deep enough for JSON Schemas of MCP tools. */
export const MAX_JSON_DEPTH = 64;

/** True when `value` nests objects or arrays more than `max` levels deep. */
export function exceedsJsonDepth(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(current)) {
      if (typeof child === "object" && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}
