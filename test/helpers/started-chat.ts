// Chats with a message, made through the API as a user's would be: lists show a chat only once it has
// its first message (a New chat left empty is not listed), so a test that wants a row makes one here.
import { readEvents } from "./sse";

type Api = { api(method: string, route: string, body?: unknown): Promise<Response> };

/** Sends `content` to the chat (answered by the fake gateway's echo model) and waits for the turn's end. */
export async function say(stack: Api, chatId: string, content = "hello", modelId = "fake/echo"): Promise<void> {
  const response = await stack.api("POST", `/api/chats/${chatId}/messages/stream`, { content, modelId });
  if (!response.ok) throw new Error(`the message was refused: ${response.status} ${await response.text()}`);
  const events = await readEvents(response);
  const error = events.find((event) => event.event === "error");
  if (error) throw new Error(`the turn failed: ${JSON.stringify(error.data)}`);
}

/** A new chat of the project (`body` as POST …/chats takes it) with one message and its answer; its id. */
export async function startedChat(
  stack: Api,
  projectId: string,
  body: Record<string, unknown> = {},
  content = "hello",
): Promise<string> {
  const response = await stack.api("POST", `/api/projects/${projectId}/chats`, body);
  if (response.status !== 201) throw new Error(`no chat: ${response.status} ${await response.text()}`);
  const { id } = (await response.json()) as { id: string };
  await say(stack, id, content);
  return id;
}
