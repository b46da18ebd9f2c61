// Guarantees that a chat turn sends the model the latest earlier messages whose estimated tokens fit the app's budget
// (oldest dropped first, nothing when even the latest does not fit), counting Chinese at about a token a character,
// and that the history reference resolves to exactly those messages.
import { describe, expect, it } from 'vitest';
import type { ChatMessageRecord, ChatStore } from '@/engine/store/chat';
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from '@/engine/llm/token-estimate';
import { chatHistoryResolver, historyRef, historyValue, historyWindow } from '@/lib/server/chat/history';

const message = (seq: number, content: string, role: 'user' | 'assistant' = seq % 2 ? 'user' : 'assistant') =>
  ({
    id: `m${seq}`,
    conversationId: 'c1',
    seq,
    role,
    content,
    runId: null,
    citations: [],
    feedback: null,
  }) as unknown as ChatMessageRecord;

describe('the history window', () => {
  const turns = [message(1, 'a'.repeat(400)), message(2, 'b'.repeat(400)), message(3, ''), message(4, 'd'.repeat(40))];
  const cost = (chars: number) => chars / 4 + MESSAGE_OVERHEAD_TOKENS;

  it('keeps the latest messages that fit, oldest dropped first, empty ones skipped', () => {
    expect(historyWindow(turns, 10_000).map((m) => m.seq)).toEqual([1, 2, 4]);
    expect(historyWindow(turns, cost(40) + cost(400)).map((m) => m.seq)).toEqual([2, 4]);
    expect(historyWindow(turns, cost(40) + cost(400) - 1).map((m) => m.seq)).toEqual([4]);
    expect(historyWindow(turns, cost(40) - 1)).toEqual([]);
    expect(historyWindow(turns, 0)).toEqual([]);
  });

  it('counts a Chinese character as about a token, and English as about four characters a token', () => {
    expect(estimateTokens('退货期限是多久')).toBe(7);
    expect(estimateTokens('How long is the return window?')).toBe(8);
  });

  it('is referenced by its first and last message, and resolves to them in either shape', async () => {
    const window = historyWindow(turns, cost(40) + cost(400));
    const ref = historyRef('c1', window, 'list')!;
    expect(ref).toEqual({ $ref: 'chat-history', conversationId: 'c1', fromSeq: 2, toSeq: 4, as: 'list' });
    expect(historyRef('c1', [], 'list')).toBeNull();
    const store = {
      listMessages: async (_id: string, r?: { fromSeq: number; toSeq: number }) =>
        turns.filter((m) => !r || (m.seq >= r.fromSeq && m.seq <= r.toSeq)),
    } as unknown as ChatStore;
    const resolver = chatHistoryResolver(store);
    expect(await resolver.resolve(ref)).toEqual(historyValue(window, 'list'));
    expect(await resolver.resolve({ ...ref, as: 'json' })).toBe(JSON.stringify(historyValue(window, 'list')));
  });
});
