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
  sendMessage,
  storedConversations,
  storedOpenConversation,
  storeOpenConversation,
  storedToken,
  storeToken,
  type ChatMessage,
  type ConversationRef,
} from './chat-client';
import { MessageView } from './chat-message';

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

  const openConversation = async (id: string, session = token) => {
    if (!session || busy) return;
    setConversationId(id);
    storeOpenConversation(slug, id);
    try {
      const r = await loadMessages(slug, session, id);
      setMessages(r.messages.map((m) => ({ ...m, citations: m.citations ?? [], feedback: m.feedback ?? null })));
    } catch (err) {
      if (err instanceof ChatApiError && SESSION_ERRORS.has(err.code)) await renewSession();
      setMessages([]);
    }
  };

  // A reload reopens the conversation this browser had open (once, when the session is there).
  const reopened = useRef(false);
  useEffect(() => {
    if (!token || reopened.current) return;
    reopened.current = true;
    const open = storedOpenConversation(slug);
    if (!open || !storedConversations(slug).some((c) => c.id === open)) return;
    void Promise.resolve().then(() => openConversation(open, token));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per page, on the first session
  }, [token, slug]);

  const newChat = () => {
    if (busy) return;
    setConversationId(null);
    storeOpenConversation(slug, null);
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
        storeOpenConversation(slug, done.conversationId);
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
              <div className="mb-4 rounded-lg bg-zinc-100 px-4 py-3" data-testid="chat-welcome">
                {config.welcome || t('defaultWelcome')}
              </div>
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
