// Parses `parley serve …` into options, or one clear error line. Pure: no file system access.
import path from "node:path";
import { parseArgs } from "node:util";

export type ServeOptions = {
  command: "serve";
  projects: string[];
  host: string;
  port: number | undefined;
  home: string;
};

export type CliRequest = ServeOptions | { command: "help" } | { command: "version" };
export type CliParse = { ok: true; request: CliRequest } | { ok: false; error: string };

export const USAGE = "usage: parley serve [--project DIR]... [--host 127.0.0.1] [--port N] [--home DIR]";

export function parseCli(
  argv: string[],
  env: Record<string, string | undefined>,
  cwd: string,
  userHome: string,
): CliParse {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        project: { type: "string", multiple: true },
        host: { type: "string" },
        port: { type: "string" },
        home: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { ok: true, request: { command: "help" } };
  if (values.version) return { ok: true, request: { command: "version" } };
  if (positionals.length !== 1 || positionals[0] !== "serve") {
    return {
      ok: false,
      error: positionals.length === 0 ? "missing command" : `unknown command '${positionals.join(" ")}'`,
    };
  }

  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port > 65535)
      return { ok: false, error: `--port must be a whole number from 0 to 65535, not '${values.port}'` };
  }
  const host = values.host ?? "127.0.0.1";
  if (host.trim() === "") return { ok: false, error: "--host must not be empty" };
  for (const name of ["project", "home"] as const) {
    const given = values[name];
    if ((Array.isArray(given) ? given : [given]).some((value) => value === ""))
      return { ok: false, error: `--${name} must not be empty` };
  }

  const homeRaw = values.home ?? env.APP_HOME ?? path.join(userHome, ".app");
  return {
    ok: true,
    request: {
      command: "serve",
      projects: (values.project ?? []).map((dir) => path.resolve(cwd, dir)),
      host,
      port,
      home: path.resolve(cwd, homeRaw),
    },
  };
}
