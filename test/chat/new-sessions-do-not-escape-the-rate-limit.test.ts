// Guarantees: a chat page's sessions are free to open, so they are rate-limited per client address as well: with
// RATE_LIMIT_PER_MIN = 3, a fourth session from the same address is 429 RATE_LIMITED with Retry-After, and messages
// sent with fresh sessions are limited by the address too, never by the session alone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer, historyGraph, json, publishChatApp, useChatAppServer, type ChatApp } from './chat-app-fixtures';

useChatAppServer('paiflow-chat-limits-', async () => {
  process.env.RATE_LIMIT_PER_MIN = '3';
});
afterAll(() => {
  delete process.env.RATE_LIMIT_PER_MIN;
});

let chat: ChatApp;
beforeAll(async () => {
  chat = await publishChatApp('Limited chat', historyGraph(), { enabled: true, access: 'public' });
});

it('a fourth session from one address in a minute is 429, and so is a fourth message', async () => {
  const tokens: string[] = [];
  for (let i = 0; i < 3; i++) {
    const s = await json('POST', `/api/v1/chat/${chat.slug}/session`, {});
    expect(s.status, s.text).toBe(201);
    tokens.push(s.body.token);
  }
  const fourth = await json('POST', `/api/v1/chat/${chat.slug}/session`, {});
  expect(fourth.status).toBe(429);
  expect(fourth.body.error.code).toBe('RATE_LIMITED');
  expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);

  const statuses: number[] = [];
  for (const token of [...tokens, tokens[0]]) {
    const r = await json('POST', `/api/v1/chat/${chat.slug}/messages`, { message: 'hi', stream: false }, bearer(token));
    statuses.push(r.status);
  }
  expect(statuses).toEqual([200, 200, 200, 429]);
});
