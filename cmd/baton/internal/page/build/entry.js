// What the chat page uses of the AI SDK: the chat class, which keeps the
// messages and answers tool parts, and the HTTP transport it talks over.
export {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
} from "ai";
