'use client';
/**
 * One message of the hosted chat page: the user's text, or an answer rendered as Markdown with code blocks (copyable),
 * its citations [n] as cards with their source, and 👍 / 👎 with an optional comment.
 */
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { sendFeedback, type ChatMessage, type Citation } from './chat-client';
import { Markdown } from './markdown';

export function MessageView({ message: m, slug, token }: { message: ChatMessage; slug: string; token: string | null }) {
  const t = useTranslations('chat');
  const [open, setOpen] = useState<string | null>(null);
  const shown = m.citations.find((c) => c.citation === open);
  if (m.role === 'user')
    return (
      <div className="flex justify-end" data-testid="chat-message" data-role="user">
        <div className="max-w-[80%] whitespace-pre-wrap rounded-lg bg-indigo-600 px-3 py-2 text-white">{m.content}</div>
      </div>
    );
  const cite = (c: string, key: string) => {
    const found = m.citations.find((x) => x.citation === c);
    if (!found) return c;
    return (
      <button
        key={key}
        type="button"
        onClick={() => setOpen(open === c ? null : c)}
        title={found.title}
        className={
          'mx-0.5 inline-flex items-center rounded-full bg-indigo-100 px-1.5 text-[11px] font-medium ' +
          'text-indigo-800 hover:bg-indigo-200'
        }
        data-testid="citation-chip"
        data-citation={c}
      >
        {c.slice(1, -1)} · {found.title.slice(0, 24)}
      </button>
    );
  };
  return (
    <div className="flex" data-testid="chat-message" data-role="assistant" data-message-id={m.id ?? undefined}>
      <div
        className="max-w-[90%] rounded-lg bg-zinc-100 px-3 py-2"
        data-testid="chat-answer"
        data-pending={m.pending ? 'true' : 'false'}
      >
        {m.content ? (
          <Markdown
            text={m.content}
            cite={cite}
            codeBlock={(code, lang, key) => <CodeBlock key={key} code={code} lang={lang} />}
          />
        ) : m.pending ? (
          <span className="text-zinc-500">{t('sending')}</span>
        ) : null}
        {m.error && (
          <p role="alert" className="text-red-600" data-testid="chat-answer-error">
            {m.error}
          </p>
        )}
        {shown && <CitationCard citation={shown} />}
        {m.id && !m.pending && token && <FeedbackBar slug={slug} token={token} messageId={m.id} initial={m.feedback} />}
      </div>
    </div>
  );
}

function CitationCard({ citation: c }: { citation: Citation }) {
  const t = useTranslations('chat');
  return (
    <div className="mt-2 rounded-md border border-zinc-200 bg-white p-2 text-[12px]" data-testid="citation-card">
      <div className="font-medium">
        {c.citation} {c.title}
        {c.page !== null && <span className="ml-1 text-zinc-500">· {t('page', { page: c.page })}</span>}
        <span className="ml-1 text-zinc-500">· {t('score', { score: c.score.toFixed(3) })}</span>
      </div>
      <blockquote className="mt-1 whitespace-pre-wrap border-l-2 border-zinc-300 pl-2 text-zinc-700">
        {c.text}
      </blockquote>
    </div>
  );
}

function CodeBlock({ code, lang }: { code: string; lang: string }) {
  const t = useTranslations('chat');
  const [copied, setCopied] = useState(false);
  return (
    <div className="relative mb-2" data-testid="chat-code-block" data-lang={lang}>
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard
            ?.writeText(code)
            .then(() => setCopied(true))
            .catch(() => {})
        }
        className="absolute right-1 top-1 rounded bg-zinc-700 px-1.5 text-[11px] text-zinc-100"
      >
        {copied ? t('copied') : t('copyCode')}
      </button>
      <pre className="overflow-x-auto rounded-md bg-zinc-900 p-3 font-mono text-[12px] text-zinc-100">
        <code>{code}</code>
      </pre>
    </div>
  );
}

function FeedbackBar({
  slug,
  token,
  messageId,
  initial,
}: {
  slug: string;
  token: string;
  messageId: string;
  initial: ChatMessage['feedback'];
}) {
  const t = useTranslations('chat');
  const [rating, setRating] = useState<'up' | 'down' | null>(initial ? (initial.rating === 1 ? 'up' : 'down') : null);
  const [comment, setComment] = useState(initial?.comment ?? '');
  const [sent, setSent] = useState(false);
  const rate = async (r: 'up' | 'down', withComment?: string) => {
    setRating(r);
    await sendFeedback(slug, token, messageId, r, withComment).catch(() => {});
    if (withComment !== undefined) setSent(true);
  };
  return (
    <div
      className="mt-2 flex flex-wrap items-center gap-1 text-[12px]"
      data-testid="chat-feedback"
      data-rating={rating ?? ''}
    >
      <button
        type="button"
        aria-label={t('helpful')}
        title={t('helpful')}
        aria-pressed={rating === 'up'}
        onClick={() => void rate('up')}
        className={'rounded px-1 ' + (rating === 'up' ? 'bg-emerald-100' : 'hover:bg-zinc-200')}
        data-testid="feedback-up"
      >
        👍
      </button>
      <button
        type="button"
        aria-label={t('notHelpful')}
        title={t('notHelpful')}
        aria-pressed={rating === 'down'}
        onClick={() => void rate('down')}
        className={'rounded px-1 ' + (rating === 'down' ? 'bg-red-100' : 'hover:bg-zinc-200')}
        data-testid="feedback-down"
      >
        👎
      </button>
      {rating && !sent && (
        <form
          className="flex flex-1 gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            void rate(rating, comment.trim());
          }}
        >
          <input
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            placeholder={t('commentPlaceholder')}
            aria-label={t('commentPlaceholder')}
            maxLength={2000}
            className="min-w-0 flex-1 rounded border border-zinc-300 px-2 py-0.5"
            data-testid="feedback-comment"
          />
          <button type="submit" className="rounded bg-zinc-700 px-2 text-white" data-testid="feedback-send">
            {t('commentSend')}
          </button>
        </form>
      )}
      {sent && (
        <span className="text-emerald-700" data-testid="feedback-thanks">
          {t('thanks')}
        </span>
      )}
    </div>
  );
}
