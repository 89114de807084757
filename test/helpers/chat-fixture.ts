// A Parley server wired to a fake gateway, with a key set and a chat ready to talk in.
import { FakeGateway } from "../fake-gateway/server";
import { startTestServer, type TestServer, type TestServerOptions } from "./test-server";

export const TEST_KEY = "sk-fake-test-key-0123456789abcdef";

export type ChatFixture = { s: TestServer; gateway: FakeGateway; projectId: string; stop(): Promise<void> };

export async function startChatFixture(
  options: { withKey?: boolean } & Pick<TestServerOptions, "home" | "sandboxProbe"> = {},
): Promise<ChatFixture> {
  const gateway = await new FakeGateway().start();
  const s = await startTestServer({
    gatewayBaseUrl: gateway.baseUrl,
    gatewayAuthUrl: gateway.authUrl,
    ...(options.home ? { home: options.home } : {}),
    ...(options.sandboxProbe ? { sandboxProbe: options.sandboxProbe } : {}),
  });
  if (options.withKey !== false)
    await s.api("PATCH", "/api/settings/app", { providers: [{ id: "gateway", apiKey: TEST_KEY }] });
  const project = await (await s.api("POST", "/api/projects", { dir: s.projectDir })).json();
  return {
    s,
    gateway,
    projectId: project.id,
    async stop() {
      await s.stop();
      await gateway.stop();
    },
  };
}

export async function newChat(
  f: ChatFixture,
  body: Record<string, unknown> = {},
): Promise<{ id: string; modelId: string | null }> {
  const res = await f.s.api("POST", `/api/projects/${f.projectId}/chats`, body);
  if (res.status !== 201) throw new Error(`chat not created: ${res.status} ${await res.text()}`);
  return res.json();
}

export function send(
  f: ChatFixture,
  chatId: string,
  body: Record<string, unknown>,
  init: { signal?: AbortSignal } = {},
) {
  return fetch(`${f.s.url}/api/chats/${chatId}/messages/stream`, {
    method: "POST",
    headers: { authorization: `Bearer ${f.s.token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: init.signal,
  });
}
