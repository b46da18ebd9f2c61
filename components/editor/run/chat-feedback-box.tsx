'use client';
/** A chat app's run: what the reader thought of the answer (👍 / 👎 and their comment), from GET /api/runs/:id/chat. */
import { useTranslations } from 'next-intl';
import { useEffect, useState } from 'react';
import { call } from '@/components/api/client';

interface RunChat {
  chat: {
    conversationId: string;
    messageId: string;
    feedback: { rating: 1 | -1; comment: string | null; at: string } | null;
  } | null;
}

export function ChatFeedbackBox({ runId }: { runId: string }) {
  const t = useTranslations('run.chatFeedback');
  const [chat, setChat] = useState<RunChat['chat']>(null);
  useEffect(() => {
    let cancelled = false;
    call<RunChat>('GET', `/api/runs/${encodeURIComponent(runId)}/chat`)
      .then((r) => !cancelled && setChat(r.chat))
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [runId]);
  if (!chat) return null;
  const f = chat.feedback;
  return (
    <div className="border-t border-zinc-200 px-3 py-2 text-[12px]" data-testid="run-chat-feedback">
      <div className="mb-1 text-[10px] font-semibold uppercase tracking-wider text-zinc-400">{t('title')}</div>
      {f ? (
        <div data-rating={f.rating === 1 ? 'up' : 'down'}>
          <span aria-label={f.rating === 1 ? t('up') : t('down')}>{f.rating === 1 ? '👍' : '👎'}</span>{' '}
          {f.comment ? <span data-testid="run-chat-feedback-comment">{f.comment}</span> : t('noComment')}
        </div>
      ) : (
        <div className="text-zinc-500">{t('none')}</div>
      )}
    </div>
  );
}
