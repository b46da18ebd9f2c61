// Guarantees: PaiFlow's errors on POST /api/v1/chat/completions surface as the official `openai` SDK's typed errors
// (401 / 403 / 404 / 400 / 422) with PaiFlow's code and a message, a failed run ends a stream with an error line, and
// a run that cannot finish synchronously answers 202 RUN_PENDING with a statusUrl to poll.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { client, echo, failing, json, llm, needsMore, paused, srv, useChatServer } from './chat-completions-fixtures';

useChatServer();

describe("errors are the SDK's typed errors, with PaiFlow's code and a message", () => {
  const rejects = async (p: Promise<unknown>) => {
    const e = await p.then(
      () => null,
      (x) => x,
    );
    expect(e, 'the call should have failed').toBeInstanceOf(OpenAI.APIError);
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
    return e as InstanceType<typeof OpenAI.APIError>;
  };
  const hi = [{ role: 'user' as const, content: 'hi' }];

  it('a wrong key → AuthenticationError (401)', async () => {
    const e = await rejects(client(`pf_${'x'.repeat(43)}`).chat.completions.create({ model: echo.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(e.status).toBe(401);
    expect(e.type).toBe('authentication_error');
    expect(e.code).toBe('UNAUTHORIZED');
    const junk = await rejects(
      client('sk-not-a-paiflow-key').chat.completions.create({ model: echo.slug, messages: hi }),
    );
    expect(junk).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('no key at all → 401 with a Bearer challenge', async () => {
    const r = await json('POST', '/api/v1/chat/completions', { model: echo.slug, messages: hi });
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(r.body.error).toMatchObject({ code: 'UNAUTHORIZED', type: 'authentication_error' });
  });

  it('an unknown model → NotFoundError (404)', async () => {
    const e = await rejects(client(echo.key).chat.completions.create({ model: 'no-such-workflow', messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.NotFoundError);
    expect(e.status).toBe(404);
    expect(e.type).toBe('not_found_error');
    expect(e.message).toContain('no-such-workflow');
  });

  it('the key of another workflow → PermissionDeniedError (403)', async () => {
    const e = await rejects(client(llm.key).chat.completions.create({ model: echo.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(e.status).toBe(403);
    expect(e.type).toBe('permission_error');
  });

  it('empty messages, or no user message → BadRequestError (400) with a path', async () => {
    const e = await rejects(client(echo.key).chat.completions.create({ model: echo.slug, messages: [] }));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.status).toBe(400);
    expect(e.type).toBe('invalid_request_error');
    expect(e.param).toBe('messages');
    expect((e.error as any).path).toBe('messages');
    const noUser = await rejects(
      client(echo.key).chat.completions.create({ model: echo.slug, messages: [{ role: 'system', content: 'only' }] }),
    );
    expect(noUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect(noUser.message).toMatch(/user/);
    const r = await json(
      'POST',
      '/api/v1/chat/completions',
      { model: echo.slug, messages: [{ role: 'wizard', content: 'x' }] },
      { authorization: `Bearer ${echo.key}` },
    );
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      path: 'messages[0].role',
      type: 'invalid_request_error',
    });
    const noModel = await json(
      'POST',
      '/api/v1/chat/completions',
      { messages: hi },
      { authorization: `Bearer ${echo.key}` },
    );
    expect(noModel.status).toBe(400);
    expect(noModel.body.error).toMatchObject({ path: 'model', type: 'invalid_request_error' });
  });

  it('another required input the messages cannot fill → 400 MISSING_INPUT, as on the run endpoint', async () => {
    const e = await rejects(client(needsMore.key).chat.completions.create({ model: needsMore.slug, messages: hi }));
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect(e.code).toBe('MISSING_INPUT');
    expect((e.error as any).path).toBe('inputs.language');
  });

  it(
    'a failed run → UnprocessableEntityError (422 RUN_FAILED) naming the run and its error; ' +
      'streamed: an error line',
    async () => {
      const e = await rejects(client(failing.key).chat.completions.create({ model: failing.slug, messages: hi }));
      expect(e).toBeInstanceOf(OpenAI.UnprocessableEntityError);
      expect(e.code).toBe('RUN_FAILED');
      const runId = e.headers?.get('x-run-id');
      expect(runId).toBeTruthy();
      expect(e.message).toContain(runId!);
      expect(e.message).toContain('CHAT_TEST_MISSING_SECRET');

      const stream = await client(failing.key).chat.completions.create({
        model: failing.slug,
        messages: hi,
        stream: true,
      });
      const seen: unknown[] = [];
      const err = await (async () => {
        for await (const ch of stream) seen.push(ch);
      })().then(
        () => null,
        (x) => x,
      );
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect(err.message).toContain('CHAT_TEST_MISSING_SECRET');
      expect(err.error).toMatchObject({ code: 'RUN_FAILED' });
      expect(seen.some((c: any) => c.choices[0]?.finish_reason === 'stop')).toBe(false);
    },
  );

  it('a run that cannot finish now (paused on human input) → 202 RUN_PENDING with a statusUrl to poll', async () => {
    const r = await json(
      'POST',
      '/api/v1/chat/completions',
      { model: paused.slug, messages: hi },
      { authorization: `Bearer ${paused.key}` },
    );
    expect(r.status, r.text).toBe(202);
    expect(r.body.error).toMatchObject({ code: 'RUN_PENDING', status: 'waiting' });
    expect(r.body.error.statusUrl).toBe(`${srv.baseUrl}/api/v1/runs/${r.headers.get('x-run-id')}`);
    expect(r.headers.get('location')).toBe(r.body.error.statusUrl);
    const poll = await json('GET', new URL(r.body.error.statusUrl).pathname, undefined, {
      authorization: `Bearer ${paused.key}`,
    });
    expect(poll.body.status).toBe('waiting');
  });

  it('the CORS preflight answers without a key', async () => {
    const pre = await fetch(`${srv.baseUrl}/api/v1/chat/completions`, {
      method: 'OPTIONS',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
  });
});
