// A chat and its current path as the JSON export document (contract 7.4). Pure: the markdown export
// is written from this same document, so the two formats cannot disagree about what a chat holds.
import type { ChatExport, ExportedMessage } from "../../shared/chat-export";
import type { Chat, Message } from "../../shared/chats";

function exportedMessage(message: Message): ExportedMessage {
  const meta = message.meta ?? {};
  const calls = meta.toolCalls ?? [];
  return {
    id: message.id,
    role: message.role,
    content: message.content,
    status: message.status,
    createdAt: message.createdAt,
    modelId: message.modelId,
    usage: message.usage,
    ...(calls.length > 0
      ? { toolCalls: calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) }
      : {}),
    ...(message.role === "tool"
      ? {
          toolResult: {
            callId: meta.callId ?? message.id,
            name: meta.name ?? "tool",
            ...(meta.ok === undefined ? {} : { ok: meta.ok }),
            ...(meta.arguments === undefined ? {} : { arguments: meta.arguments }),
          },
        }
      : {}),
    ...(meta.kind
      ? {
          attachment: {
            kind: meta.kind,
            ...(meta.path ? { path: meta.path } : {}),
            ...(meta.uri ? { uri: meta.uri } : {}),
          },
        }
      : {}),
    ...(meta.reasoning ? { reasoning: meta.reasoning } : {}),
    ...(meta.error ? { error: meta.error.message } : {}),
    ...(meta.diff ? { diff: meta.diff } : {}),
  };
}

/** `messages` is the path the chat shows (MessagesRepo.listByChat), oldest first. */
export function chatExportDocument(chat: Chat, messages: readonly Message[], exportedAt: string): ChatExport {
  return {
    format: "parley.chat",
    version: 1,
    exportedAt,
    chat: {
      id: chat.id,
      title: chat.title,
      modelId: chat.modelId,
      agent: chat.agent,
      promptId: chat.promptId,
      createdAt: chat.createdAt,
      updatedAt: chat.updatedAt,
    },
    messages: messages.map(exportedMessage),
  };
}
