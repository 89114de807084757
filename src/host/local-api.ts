// Calls Parley's own server from the extension host, over loopback with this start's token: what the
// host does through it (a worktree chat from the palette, a worktree file for the diff editor) takes
// the same route, checks and error words as when the panel or a browser tab does it.
import type { z } from "zod";
import { apiErrorBodySchema } from "../shared/api-error";
import { apiRoutes, methodOf, pathOf, type ApiRouteKey } from "../shared/api-routes";

/** A failed call: the server's status and its own words (what the user is shown). */
export class LocalApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type LocalServer = { url: string; token: string };
type Input = { params?: Record<string, string>; query?: Record<string, string>; body?: unknown };

/** Calls route `key` and parses its answer with the route's response schema. */
export async function callLocalApi<K extends ApiRouteKey>(
  server: LocalServer,
  key: K,
  input: Input = {},
): Promise<z.output<(typeof apiRoutes)[K]["response"]>> {
  const method = methodOf(key);
  const path = pathOf(key).replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(input.params?.[name] ?? ""),
  );
  const search = new URLSearchParams(input.query).toString();
  const body = input.body === undefined && method === "POST" ? {} : input.body;
  const response = await fetch(`${server.url}${path}${search ? `?${search}` : ""}`, {
    method,
    headers: {
      authorization: `Bearer ${server.token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const parsed = apiErrorBodySchema.safeParse(await response.json().catch(() => undefined));
    throw new LocalApiError(
      response.status,
      parsed.success ? parsed.data.error.message : `the server answered ${response.status}`,
    );
  }
  const json: unknown = response.status === 204 ? undefined : await response.json();
  return apiRoutes[key].response.parse(json) as z.output<(typeof apiRoutes)[K]["response"]>;
}
