/**
 * What a chat app lets its visitors store and send (engine/config/variables.ts, "Chat apps"): read per request, so a
 * test or an operator's change applies at once. docs/chat-apps.md says what a visitor sees at each limit.
 */
import { settings } from '@/engine/config/settings';
import type { ChatAppSettings } from '@/engine/store/chat';

export function chatLimits(chat?: Pick<ChatAppSettings, 'historyMaxTokens'>) {
  const s = settings();
  return {
    messageMaxChars: s.CHAT_MESSAGE_MAX_CHARS,
    historyMaxTokens: chat?.historyMaxTokens ?? s.CHAT_HISTORY_MAX_TOKENS,
    messagesPerConversation: s.CHAT_MAX_MESSAGES_PER_CONVERSATION,
    conversationsPerVisitor: s.CHAT_MAX_CONVERSATIONS_PER_VISITOR,
    conversationsPerApp: s.CHAT_MAX_CONVERSATIONS_PER_APP,
    sessionsPerVisitorPerHour: s.CHAT_SESSIONS_PER_VISITOR_PER_HOUR,
  };
}
