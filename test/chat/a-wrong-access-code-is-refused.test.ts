// Guarantees: a chat app behind an access code opens a page session only for the right code (compared in constant
// time): no code → 401 CHAT_ACCESS_CODE_REQUIRED, a wrong one → 403 CHAT_ACCESS_CODE_INVALID, and after ten wrong
// ones the address waits (429 with Retry-After). Without a session or key the chat API refuses; a session of another
// chat, a forged one, or one opened before the code changed is refused. A chat that is off is 404 CHAT_DISABLED.
// The settings never show the code; `access: "code"` without any code is a 400 with its path.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  historyGraph,
  json,
  publishChatApp,
  session,
  useChatAppServer,
  type ChatApp,
} from './chat-app-fixtures';

useChatAppServer('paiflow-chat-code-');

let secret: ChatApp;
let open: ChatApp;
beforeAll(async () => {
  secret = await publishChatApp('Secret chat', historyGraph(), {
    enabled: true,
    access: 'code',
    code: 'owl-2026',
    title: 'Team helper',
    welcome: 'Ask me anything',
    suggestions: ['What can you do?'],
  });
  open = await publishChatApp('Open chat', historyGraph(), { enabled: true, access: 'public' });
});

const send = (slug: string, headers: Record<string, string> = {}) =>
  json('POST', `/api/v1/chat/${slug}/messages`, { message: 'hi', stream: false }, headers);

describe('a chat behind an access code', () => {
  it('shows its public face without the code, and the Publish panel never shows the code', async () => {
    const face = await json('GET', `/api/v1/chat/${secret.slug}`);
    expect(face.status, face.text).toBe(200);
    expect(face.body).toEqual({
      slug: secret.slug,
      title: 'Team helper',
      welcome: 'Ask me anything',
      suggestions: ['What can you do?'],
      access: 'code',
    });
    const panel = await json('GET', `/api/workflows/${secret.id}/publish`);
    expect(panel.body.chat).toMatchObject({ enabled: true, access: 'code', hasCode: true });
    expect(panel.body.chat.embedSnippet).toMatch(
      new RegExp(`<script src="http://.+/chat/${secret.slug}/embed.js" async></script>`),
    );
    expect(panel.text).not.toContain('owl-2026');
    expect(panel.text).not.toContain('sessionSecret');
    // Nor does the workflow itself (any reader of the workspace may GET it): no code hash, no session secret.
    const wf = await json('GET', `/api/workflows/${secret.id}`);
    expect(wf.body.chat).toEqual({
      enabled: true,
      title: 'Team helper',
      welcome: 'Ask me anything',
      suggestions: ['What can you do?'],
      access: 'code',
      embedOrigins: ['*'],
      historyMaxTokens: null,
    });
    expect(wf.text).not.toMatch(/codeHash|sessionSecret/);
  });

  it('a missing code is 401, a wrong access code is refused with 403, the right one opens a session', async () => {
    const none = await json('POST', `/api/v1/chat/${secret.slug}/session`, {});
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('CHAT_ACCESS_CODE_REQUIRED');
    const wrong = await json('POST', `/api/v1/chat/${secret.slug}/session`, { code: 'owl-2025' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toMatchObject({ code: 'CHAT_ACCESS_CODE_INVALID', path: 'code' });
    const token = await session(secret.slug, 'owl-2026');
    expect(token).toMatch(/^cs_/);
    const a = await send(secret.slug, bearer(token));
    expect(a.status, a.text).toBe(200);
    expect(a.body.answer).toContain('You said: "hi"');
  });

  it('without a session or key the chat API is 401; a forged or another chat’s session is 401', async () => {
    const none = await send(secret.slug);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('CHAT_ACCESS_CODE_REQUIRED');
    const forged = await send(secret.slug, bearer('cs_eyJ3IjoieCJ9.forged'));
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('CHAT_SESSION_INVALID');
    const elsewhere = await send(secret.slug, bearer(await session(open.slug)));
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body.error.code).toBe('CHAT_SESSION_INVALID');
    const key = await send(secret.slug, bearer(secret.key));
    expect(key.status, key.text).toBe(200);
  });

  it('a new code ends the sessions the old code opened', async () => {
    const old = await session(secret.slug, 'owl-2026');
    const p = await json('PATCH', `/api/workflows/${secret.id}/publish`, {
      chat: { enabled: true, access: 'code', code: 'new-code-1' },
    });
    expect(p.status, p.text).toBe(200);
    expect((await send(secret.slug, bearer(old))).status).toBe(401);
    expect((await send(secret.slug, bearer(await session(secret.slug, 'new-code-1')))).status).toBe(200);
    // Settings not given are kept (title, welcome, suggestions).
    expect((await json('GET', `/api/v1/chat/${secret.slug}`)).body.title).toBe('Team helper');
  });

  it('after ten wrong codes the address waits (429 with Retry-After), even with the right code', async () => {
    const wf = await publishChatApp('Guessed chat', historyGraph(), {
      enabled: true,
      access: 'code',
      code: 'right-code',
    });
    for (let i = 0; i < 10; i++) {
      const w = await json('POST', `/api/v1/chat/${wf.slug}/session`, { code: `guess-${i}` });
      expect(w.status).toBe(403);
    }
    const blocked = await json('POST', `/api/v1/chat/${wf.slug}/session`, { code: 'right-code' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('settings and switching off', () => {
  it('access "code" without any code is a 400 at chat.code; unknown keys are 400', async () => {
    const wf = await json('POST', '/api/workflows', { name: 'Codeless', graph: historyGraph() });
    const a = await json('PATCH', `/api/workflows/${wf.body.id}/publish`, { chat: { enabled: true, access: 'code' } });
    expect(a.status).toBe(400);
    expect(a.body.error).toMatchObject({ code: 'CHAT_CODE_MISSING', path: 'chat.code' });
    const b = await json('PATCH', `/api/workflows/${wf.body.id}/publish`, {
      chat: { enabled: true, access: 'public', colour: 'red' },
    });
    expect(b.status).toBe(400);
    expect(b.body.error.path).toMatch(/^chat/);
    const c = await json('PATCH', `/api/workflows/${wf.body.id}/publish`, { chat: { enabled: true, access: 'open' } });
    expect(c.status).toBe(400);
    expect(c.body.error.path).toBe('chat.access');
  });

  it('a chat that is switched off is 404 CHAT_DISABLED; one never set up too', async () => {
    const off = await publishChatApp('Closing chat', historyGraph(), { enabled: true, access: 'public' });
    const token = await session(off.slug);
    const p = await json('PATCH', `/api/workflows/${off.id}/publish`, { chat: { enabled: false, access: 'public' } });
    expect(p.status, p.text).toBe(200);
    for (const r of [
      await json('GET', `/api/v1/chat/${off.slug}`),
      await json('POST', `/api/v1/chat/${off.slug}/session`, {}),
      await send(off.slug, bearer(token)),
      await send(off.slug, bearer(off.key)),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('CHAT_DISABLED');
    }
    const plain = await json('POST', '/api/workflows', { name: 'No chat', graph: historyGraph() });
    const pub = await json('POST', `/api/workflows/${plain.body.id}/publish`);
    const face = await json('GET', `/api/v1/chat/${pub.body.slug}`);
    expect(face.status).toBe(404);
    expect(face.body.error.code).toBe('CHAT_DISABLED');
    expect((await json('GET', '/api/v1/chat/no-such-chat')).status).toBe(404);
  });
});
