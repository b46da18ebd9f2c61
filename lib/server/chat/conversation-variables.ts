/**
 * The chat store as the runtime's ConversationVariableStore (engine/runtime/conversation-state.ts): a chat turn's
 * run (trigger `chat`, its conversation's id) starts with the variables stored here and, when it succeeds, stores
 * what it wrote back before it is recorded as succeeded.
 */
import type { ConversationVariableStore } from '@/engine/runtime/conversation-state';
import type { ChatStore } from '@/engine/store/chat';

export function chatConversationVariables(chat: ChatStore): ConversationVariableStore {
  return {
    valuesOf: (conversationId) => chat.variablesOf(conversationId),
    write: (conversationId, written) => chat.writeVariables(conversationId, written),
  };
}
