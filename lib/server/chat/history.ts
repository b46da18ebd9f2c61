/**
 * A chat turn's history: the conversation's earlier messages, stored once (chat_messages), reach the run as a
 * reference (`{ $ref: "chat-history", conversationId, fromSeq, toSeq, as }`, engine/runtime/input-refs.ts) that every
 * execution resolves to the messages it names. The run record, node snapshots and events keep the reference, so a
 * long conversation does not store a growing copy of itself with each turn.
 *
 * The window is the latest messages whose estimated tokens fit the app's budget (`chat.historyMaxTokens`, else
 * CHAT_HISTORY_MAX_TOKENS): what a model with that much context to spare can take. Older ones stay in the
 * conversation and are not sent.
 */
import type { ChatMessageRecord, ChatStore } from '@/engine/store/chat';
import { isInputRef, type InputRef, type InputRefResolver } from '@/engine/runtime/input-refs';
import { messageTokens } from '@/engine/llm/token-estimate';

export const CHAT_HISTORY_REF = 'chat-history';

/** `list`: `[{ role, content }]`; `json`: that list as JSON text (a Start input declared as a string). */
export type HistoryShape = 'list' | 'json';

export interface ChatHistoryRef extends InputRef {
  $ref: typeof CHAT_HISTORY_REF;
  conversationId: string;
  fromSeq: number;
  toSeq: number;
  as: HistoryShape;
}

const sendable = (m: ChatMessageRecord) => m.content !== '';

/** The latest sendable messages whose tokens fit `maxTokens`, oldest first (none fit: empty). */
export function historyWindow(messages: ChatMessageRecord[], maxTokens: number): ChatMessageRecord[] {
  const picked: ChatMessageRecord[] = [];
  let used = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!sendable(m)) continue;
    used += messageTokens(m.content);
    if (used > maxTokens) break;
    picked.push(m);
  }
  return picked.reverse();
}

/** The history as the run's input gets it. */
export function historyValue(window: ChatMessageRecord[], as: HistoryShape): unknown {
  const list = window.map((m) => ({ role: m.role, content: m.content }));
  return as === 'json' ? JSON.stringify(list) : list;
}

/** The reference for `window` (null when it is empty: an empty history is given as it is). */
export function historyRef(conversationId: string, window: ChatMessageRecord[], as: HistoryShape) {
  if (!window.length) return null;
  const ref: ChatHistoryRef = {
    $ref: CHAT_HISTORY_REF,
    conversationId,
    fromSeq: window[0].seq,
    toSeq: window[window.length - 1].seq,
    as,
  };
  return ref;
}

/**
 * Resolves chat-history references from the conversation's messages. A conversation deleted since (the oldest are
 * pruned: turns.ts) resolves to an empty history.
 */
export function chatHistoryResolver(chat: ChatStore): InputRefResolver {
  return {
    async resolve(ref) {
      if (!isInputRef(ref) || ref.$ref !== CHAT_HISTORY_REF) throw new Error(`unknown reference kind "${ref.$ref}"`);
      const r = ref as ChatHistoryRef;
      const messages = await chat.listMessages(String(r.conversationId), {
        fromSeq: Number(r.fromSeq),
        toSeq: Number(r.toSeq),
      });
      return historyValue(messages.filter(sendable), r.as === 'json' ? 'json' : 'list');
    },
  };
}
