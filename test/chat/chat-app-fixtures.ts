/**
 * Fixtures of the chat-app tests: a fresh app behind a real HTTP server with the management, published and chat
 * routes; a workflow published with its chat app on; and small clients for the chat API (JSON and SSE).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { getApp } from '@/lib/server/app';
import { defaultRoutes, startRouteServer, type RouteServer } from '../support/route-server';
import { useFreshDataDir } from '../api/api-helpers';

export let srv: RouteServer;

export async function json(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${srv.baseUrl}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  expect(res.status, text).toBeLessThan(500);
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const node = (id: string, type: string, config: unknown, x = 0) => ({
  id,
  type,
  position: { x, y: 0 },
  data: { config },
});

/** Start (message, history) → LLM that sends the history before the message → End (answer). */
export function historyGraph(llmConfig: Record<string, unknown> = {}) {
  return {
    nodes: [
      node('start', 'start', {
        inputs: [
          { name: 'message', type: 'string', required: true },
          { name: 'history', type: 'array', required: false, default: [] },
        ],
      }),
      node(
        'reply',
        'llm',
        {
          model: 'demo',
          userPrompt: '{{inputs.message}}',
          history: '{{inputs.history}}',
          temperature: 0,
          ...llmConfig,
        },
        200,
      ),
      node('end', 'end', { outputs: [{ name: 'answer', value: '{{reply.output.text}}' }] }, 400),
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'reply' },
      { id: 'e2', source: 'reply', target: 'end' },
    ],
  };
}

export interface ChatApp {
  id: string;
  slug: string;
  key: string;
}

/** Creates and publishes `graph`, turns its chat app on with `chat`, and mints an API key. */
export async function publishChatApp(name: string, graph: unknown, chat: Record<string, unknown>): Promise<ChatApp> {
  const wf = await json('POST', '/api/workflows', { name, graph });
  expect(wf.status, wf.text).toBe(201);
  const p = await json('POST', `/api/workflows/${wf.body.id}/publish`);
  expect(p.status, p.text).toBe(201);
  const s = await json('PATCH', `/api/workflows/${wf.body.id}/publish`, { chat });
  expect(s.status, s.text).toBe(200);
  const k = await json('POST', `/api/workflows/${wf.body.id}/api-keys`, { name: 'chat' });
  expect(k.status, k.text).toBe(201);
  return { id: wf.body.id, slug: p.body.slug, key: k.body.key };
}

/** A page's chat session token for `slug` (with `code` for a chat behind an access code). */
export async function session(slug: string, code?: string): Promise<string> {
  const s = await json('POST', `/api/v1/chat/${slug}/session`, code === undefined ? {} : { code });
  expect(s.status, s.text).toBe(201);
  return s.body.token;
}

export interface SseEvent {
  event: string;
  data: any;
}

/** Sends a message with streaming on and reads the whole SSE answer. */
export async function sendStreaming(slug: string, token: string, body: Record<string, unknown>) {
  const res = await fetch(`${srv.baseUrl}/api/v1/chat/${slug}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const events: SseEvent[] = [];
  for (const frame of text.split('\n\n')) {
    const event = /^event: (.+)$/m.exec(frame)?.[1];
    const data = /^data: (.+)$/m.exec(frame)?.[1];
    if (event && data) events.push({ event, data: JSON.parse(data) });
  }
  return { events, done: events.find((e) => e.event === 'done')?.data, headers: res.headers };
}

/** Points the app at a fresh data directory and starts it behind a route server with the chat routes. */
export function useChatAppServer(prefix = 'paiflow-chat-app-', before?: () => Promise<void>) {
  useFreshDataDir(prefix);
  process.env.SEED_EXAMPLE = '0';
  beforeAll(async () => {
    await before?.();
    await getApp();
    srv = await startRouteServer([
      ...(await defaultRoutes()),
      ['/api/runs/:runId/chat', await import('@/app/api/runs/[runId]/chat/route')],
      ['/api/v1/chat/:slug', await import('@/app/api/v1/chat/[slug]/route')],
      ['/api/v1/chat/:slug/session', await import('@/app/api/v1/chat/[slug]/session/route')],
      ['/api/v1/chat/:slug/messages', await import('@/app/api/v1/chat/[slug]/messages/route')],
      [
        '/api/v1/chat/:slug/messages/:messageId/feedback',
        await import('@/app/api/v1/chat/[slug]/messages/[messageId]/feedback/route'),
      ],
      [
        '/api/v1/chat/:slug/conversations/:id/messages',
        await import('@/app/api/v1/chat/[slug]/conversations/[id]/messages/route'),
      ],
    ]);
  }, 120_000);
  afterAll(async () => {
    await srv?.close();
    await (await getApp()).close();
  });
}
