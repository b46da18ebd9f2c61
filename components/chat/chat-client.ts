/**
 * The chat page's calls and what it keeps per browser (localStorage, per chat): the page session token and the list
 * of conversations. The answer stream is read from the SSE of POST /api/v1/chat/:slug/messages.
 */
export interface Citation {
  citation: string;
  title: string;
  page: number | null;
  text: string;
  score: number;
}

export interface Feedback {
  rating: 1 | -1;
  comment: string | null;
}

export interface ChatMessage {
  id: string | null;
  role: 'user' | 'assistant';
  content: string;
  citations: Citation[];
  feedback: Feedback | null;
  error?: string;
  pending?: boolean;
}

export interface ConversationRef {
  id: string;
  title: string;
  updatedAt: string;
}

export class ChatApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const base = (slug: string) => `/api/v1/chat/${encodeURIComponent(slug)}`;
const tokenKey = (slug: string) => `paiflow.chat.${slug}.token`;
const listKey = (slug: string) => `paiflow.chat.${slug}.conversations`;
const lastKey = (slug: string) => `paiflow.chat.${slug}.open`;

function read<T>(key: string, fallback: T): T {
  try {
    const v = window.localStorage.getItem(key);
    return v ? (JSON.parse(v) as T) : fallback;
  } catch {
    return fallback;
  }
}
function write(key: string, v: unknown) {
  try {
    if (v === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(v));
  } catch {
    /* storage full or off: the page still works for this visit */
  }
}

export const storedToken = (slug: string) => read<string | null>(tokenKey(slug), null);
export const storeToken = (slug: string, token: string | null) => write(tokenKey(slug), token);
export const storedConversations = (slug: string) => read<ConversationRef[]>(listKey(slug), []);
/** The conversation this browser had open (a reload reopens it); null after "New chat". */
export const storedOpenConversation = (slug: string) => read<string | null>(lastKey(slug), null);
export const storeOpenConversation = (slug: string, id: string | null) => write(lastKey(slug), id);
export function rememberConversation(slug: string, c: ConversationRef): ConversationRef[] {
  const list = [c, ...storedConversations(slug).filter((x) => x.id !== c.id)].slice(0, 50);
  write(listKey(slug), list);
  return list;
}

async function request<T>(method: string, url: string, token: string | null, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ChatApiError(res.status, data?.error?.code ?? 'ERROR', data?.error?.message ?? res.statusText);
  return data as T;
}

export async function openSession(slug: string, code?: string): Promise<string> {
  const s = await request<{ token: string }>('POST', `${base(slug)}/session`, null, code ? { code } : {});
  storeToken(slug, s.token);
  return s.token;
}

export const loadMessages = (slug: string, token: string, conversationId: string) =>
  request<{ messages: Array<ChatMessage & { id: string }> }>(
    'GET',
    `${base(slug)}/conversations/${encodeURIComponent(conversationId)}/messages`,
    token,
  );

export const sendFeedback = (slug: string, token: string, messageId: string, rating: 'up' | 'down', comment?: string) =>
  request<{ feedback: Feedback }>('POST', `${base(slug)}/messages/${encodeURIComponent(messageId)}/feedback`, token, {
    rating,
    ...(comment ? { comment } : {}),
  });

export interface Done {
  conversationId: string;
  messageId: string;
  answer: string;
  citations: Citation[];
}

/** Sends a message and reads its answer's SSE: `onConversation` first, `onDelta` per token; resolves with `done`. */
export async function sendMessage(
  slug: string,
  token: string,
  body: { conversationId?: string; message: string },
  on: { onConversation(id: string): void; onDelta(d: string): void },
): Promise<Done> {
  const res = await fetch(`${base(slug)}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) {
    const data = await res.json().catch(() => null);
    throw new ChatApiError(res.status, data?.error?.code ?? 'ERROR', data?.error?.message ?? res.statusText);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += value;
    let cut: number;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const frame = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const event = /^event: (.+)$/m.exec(frame)?.[1];
      const raw = /^data: (.+)$/m.exec(frame)?.[1];
      if (!event || !raw) continue;
      const data = JSON.parse(raw);
      if (event === 'conversation') on.onConversation(data.conversationId);
      else if (event === 'token') on.onDelta(data.delta);
      else if (event === 'done') return data as Done;
      else if (event === 'error')
        throw new ChatApiError(500, data.error?.code ?? 'ERROR', data.error?.message ?? 'the answer failed');
    }
  }
  throw new ChatApiError(502, 'STREAM_ENDED', 'the answer stream ended early');
}
