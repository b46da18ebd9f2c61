'use client';
/**
 * The hosted chat page (/chat/:slug): opens a page session (after the access code, for a chat behind one), keeps
 * this browser's conversations in a list, streams each answer's tokens, renders Markdown and code, shows citations
 * [n] as chips with their source, and takes 👍 / 👎 with an optional comment per answer.
 */
import { useTranslations } from 'next-intl';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  ChatApiError,
  loadMessages,
  openSession,
  rememberConversation,
  sendFeedback,
  sendMessage,
  storedConversations,
  storedToken,
  storeToken,
  type ChatMessage,
  type Citation,
  type ConversationRef,
} from './chat-client';
import { Markdown } from './markdown';

export interface ChatConfig {
  slug: string;
  title: string;
  welcome: string | null;
  suggestions: string[];
  access: 'public' | 'code';
}

const SESSION_ERRORS = new Set(['CHAT_SESSION_INVALID', 'CHAT_ACCESS_CODE_REQUIRED', 'UNAUTHORIZED']);

export function ChatPage({ config }: { config: ChatConfig }) {
  const t = useTranslations('chat');
  const { slug } = config;
  const [token, setToken] = useState<string | null>(null);
  const [needsCode, setNeedsCode] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [conversations, setConversations] = useState<ConversationRef[]>([]);
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);

  // A session: the stored one, else a new one (a chat behind a code asks for it first). localStorage is read after
  // the first render, so the server's HTML and the browser's first render agree.
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      await Promise.resolve();
      if (cancelled) return;
      setConversations(storedConversations(slug));
      const stored = storedToken(slug);
      if (stored) return setToken(stored);
      if (config.access === 'code') return setNeedsCode(true);
      try {
        const fresh = await openSession(slug);
        if (!cancelled) setToken(fresh);
      } catch {
        if (!cancelled) setNeedsCode(true);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [slug, config.access]);

  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [messages]);

  /** The session ended (code changed, expired): forget it and open a new one. */
  const renewSession = useCallback(async () => {
    storeToken(slug, null);
    setToken(null);
    if (config.access === 'code') {
      setNeedsCode(true);
      return null;
    }
    const fresh = await openSession(slug);
    setToken(fresh);
    return fresh;
  }, [slug, config.access]);

  const submitCode = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const code = String(new FormData(e.currentTarget).get('code') ?? '');
    setCodeError(null);
    try {
      setToken(await openSession(slug, code));
      setNeedsCode(false);
    } catch (err) {
      setCodeError(err instanceof Error ? err.message : String(err));
    }
  };

  const openConversation = async (id: string) => {
    if (!token || busy) return;
    setConversationId(id);
    try {
      const r = await loadMessages(slug, token, id);
      setMessages(r.messages.map((m) => ({ ...m, citations: m.citations ?? [], feedback: m.feedback ?? null })));
    } catch (err) {
      if (err instanceof ChatApiError && SESSION_ERRORS.has(err.code)) await renewSession();
      setMessages([]);
    }
  };

  const newChat = () => {
    if (busy) return;
    setConversationId(null);
    setMessages([]);
  };

  const send = async (text: string) => {
    const message = text.trim();
    if (!message || busy) return;
    let session = token;
    if (!session) return;
    setBusy(true);
    setDraft('');
    const before = messages;
    const user: ChatMessage = { id: null, role: 'user', content: message, citations: [], feedback: null };
    const pending: ChatMessage = {
      id: null,
      role: 'assistant',
      content: '',
      citations: [],
      feedback: null,
      pending: true,
    };
    setMessages([...before, user, pending]);
    const patchLast = (f: (m: ChatMessage) => ChatMessage) =>
      setMessages((ms) => [...ms.slice(0, -1), f(ms[ms.length - 1])]);
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const done = await sendMessage(
          slug,
          session!,
          { ...(conversationId ? { conversationId } : {}), message },
          {
            onConversation: (id) => setConversationId(id),
            onDelta: (d) => patchLast((m) => ({ ...m, content: m.content + d })),
          },
        );
        setConversationId(done.conversationId);
        patchLast((m) => ({
          ...m,
          id: done.messageId,
          content: done.answer,
          citations: done.citations,
          pending: false,
        }));
        setConversations(
          rememberConversation(slug, {
            id: done.conversationId,
            title: (before.find((m) => m.role === 'user')?.content ?? message).slice(0, 60),
            updatedAt: new Date().toISOString(),
          }),
        );
        break;
      } catch (err) {
        if (attempt === 0 && err instanceof ChatApiError && SESSION_ERRORS.has(err.code)) {
          session = await renewSession().catch(() => null);
          if (session) continue;
        }
        const why = err instanceof Error ? err.message : String(err);
        patchLast((m) => ({ ...m, pending: false, error: t('failed', { message: why }) }));
        break;
      }
    }
    setBusy(false);
  };

  if (needsCode && !token)
    return (
      <main className="grid min-h-screen place-items-center bg-zinc-50 p-6">
        <form onSubmit={(e) => void submitCode(e)} className="w-full max-w-sm rounded-lg border bg-white p-6 shadow-sm">
          <h1 className="mb-1 text-lg font-semibold">{config.title}</h1>
          <p className="mb-4 text-sm text-zinc-600">{t('codeTitle')}</p>
          <label className="block text-sm text-zinc-700">
            {t('codeLabel')}
            <input
              name="code"
              type="password"
              autoFocus
              required
              className="mt-1 w-full rounded-md border border-zinc-300 px-2 py-1.5"
              data-testid="chat-code-input"
            />
          </label>
          {codeError && (
            <p role="alert" className="mt-2 text-sm text-red-600" data-testid="chat-code-error">
              {codeError}
            </p>
          )}
          <button
            type="submit"
            className="mt-4 w-full rounded-md bg-indigo-600 py-1.5 text-sm font-medium text-white"
            data-testid="chat-code-submit"
          >
            {t('codeSubmit')}
          </button>
        </form>
      </main>
    );

  return (
    <main
      className="flex h-screen bg-white text-sm text-zinc-900"
      data-testid="chat-page"
      data-ready={token ? 'true' : 'false'}
    >
      <aside
        className="hidden w-60 shrink-0 flex-col border-r border-zinc-200 bg-zinc-50 sm:flex"
        aria-label={t('conversations')}
      >
        <button
          type="button"
          onClick={newChat}
          className="m-3 rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-left font-medium hover:bg-zinc-100"
          data-testid="chat-new"
        >
          + {t('newChat')}
        </button>
        <nav className="min-h-0 flex-1 overflow-y-auto px-2" data-testid="chat-conversations">
          {conversations.length === 0 && <p className="px-2 text-[12px] text-zinc-500">{t('noConversations')}</p>}
          {conversations.map((c) => (
            <button
              key={c.id}
              type="button"
              onClick={() => void openConversation(c.id)}
              className={
                'mb-1 block w-full truncate rounded-md px-2 py-1.5 text-left text-[13px] ' +
                (c.id === conversationId ? 'bg-indigo-100 text-indigo-900' : 'hover:bg-zinc-100')
              }
              data-testid="chat-conversation"
              data-conversation-id={c.id}
            >
              {c.title}
            </button>
          ))}
        </nav>
      </aside>
      <section className="flex min-w-0 flex-1 flex-col">
        <header className="border-b border-zinc-200 px-4 py-3">
          <h1 className="text-base font-semibold" data-testid="chat-title">
            {config.title}
          </h1>
        </header>
        <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4" data-testid="chat-messages">
          {messages.length === 0 && (
            <div className="mx-auto max-w-2xl">
              {config.welcome && (
                <div className="mb-4 rounded-lg bg-zinc-100 px-4 py-3" data-testid="chat-welcome">
                  {config.welcome}
                </div>
              )}
              <div className="flex flex-wrap gap-2">
                {config.suggestions.map((s) => (
                  <button
                    key={s}
                    type="button"
                    onClick={() => void send(s)}
                    disabled={!token || busy}
                    className="rounded-full border border-zinc-300 px-3 py-1 text-[13px] hover:bg-zinc-100"
                    data-testid="chat-suggestion"
                  >
                    {s}
                  </button>
                ))}
              </div>
            </div>
          )}
          <div className="mx-auto max-w-2xl space-y-4">
            {messages.map((m, i) => (
              <MessageView key={m.id ?? `p${i}`} message={m} slug={slug} token={token} />
            ))}
          </div>
          <div ref={bottom} />
        </div>
        <form
          className="flex gap-2 border-t border-zinc-200 p-3"
          onSubmit={(e) => {
            e.preventDefault();
            void send(draft);
          }}
        >
          <textarea
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                void send(draft);
              }
            }}
            rows={1}
            placeholder={t('placeholder')}
            aria-label={t('placeholder')}
            className="min-h-[38px] flex-1 resize-none rounded-md border border-zinc-300 px-3 py-2"
            data-testid="chat-input"
          />
          <button
            type="submit"
            disabled={!token || busy || !draft.trim()}
            className="rounded-md bg-indigo-600 px-4 font-medium text-white disabled:opacity-50"
            data-testid="chat-send"
          >
            {busy ? t('sending') : t('send')}
          </button>
        </form>
      </section>
    </main>
  );
}

function MessageView({ message: m, slug, token }: { message: ChatMessage; slug: string; token: string | null }) {
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
