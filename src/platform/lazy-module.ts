// Libraries that a start does not need (undici, the WebAuthn library, the MCP SDK) are loaded on first
// use, off the start-up path. Loading one still takes the main thread 25 to 40 ms, so the server loads
// them in the background right after it listens (warmInBackground), before a user can send anything:
// a first chat, passkey or MCP server never pauses streams that are running.

/** A module loaded on first use (see lazyModule). */
export type LazyModule<T> = {
  (): Promise<T>;
  /** The module once it has loaded, without waiting a turn of the event loop; else undefined. */
  loaded(): T | undefined;
};

/** A loader that imports once, on its first call, and keeps the module; after a failure it tries again. */
export function lazyModule<T>(load: () => Promise<T>): LazyModule<T> {
  let loading: Promise<T> | undefined;
  let module: T | undefined;
  const loader = () =>
    (loading ??= load().then(
      (loadedModule) => (module = loadedModule),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(loader, { loaded: () => module });
}

/**
 * Runs `loaders` one at a time, each in a turn of the event loop of its own, so that requests
 * arriving meanwhile wait behind one load at most. Resolves when all are done; a failed load is left
 * for its first real use to report.
 */
export async function warmInBackground(loaders: readonly (() => Promise<unknown>)[]): Promise<void> {
  for (const load of loaders) {
    await new Promise((resolve) => setImmediate(resolve));
    await load().catch(() => {});
  }
}
