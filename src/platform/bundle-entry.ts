// Where a separately started entry point (a worker, a child process) lives: next to the bundle that
// starts it (dist/<name>.cjs beside dist/cli.cjs, dist/extension.cjs and dist/mention-worker.cjs),
// or, unbundled (tests, the bench), its TypeScript source beside the module that starts it, loaded
// with tsx. `from` is that module's `import.meta.url` (in a bundle, the bundle's own file).
import path from "node:path";
import { fileURLToPath } from "node:url";

export function bundleEntry(name: string, from: string): { file: string; execArgv: string[] } {
  const here = fileURLToPath(from);
  if (here.endsWith(".cjs")) return { file: path.join(path.dirname(here), `${name}.cjs`), execArgv: [] };
  // Only the loader: workers refuse some process flags (--expose-gc, for one).
  return { file: path.join(path.dirname(here), `${name}.ts`), execArgv: ["--import", "tsx"] };
}
