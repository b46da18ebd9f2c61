/**
 * Guarantee: a credential's value is shown only masked, is sent only by the node runtime and only to the host it is
 * bound to (an OpenAI-compatible provider's base URL; an HTTP credential's hosts) — anything else fails with
 * SECRET_HOST_NOT_ALLOWED before a byte is sent — and it never appears in a run record, its events, an export or the
 * credential list, not even when the provider quotes it back in an error.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAi, type FakeOpenAi } from '../test/support/fake-openai-server';
import { eventsOf, startReceiver, waitPortFree, type Receiver } from './support/c-services';
import { acceptance } from './support/context';
import { chain, createWorkflow, node, nodeOf, runToEnd } from './support/runs';

const { api, ports } = acceptance();

const API_KEY = `sk-test-${randomBytes(18).toString('hex')}`;
const BEARER = `tok-${randomBytes(18).toString('hex')}`;
const HEADER_SECRET = `hdr-${randomBytes(18).toString('hex')}`;
const SECRETS = [API_KEY, BEARER, HEADER_SECRET];

/** Everything a user can read about a run: its record, its events, its workflow's export, and the run list. */
async function everythingAbout(runId: string, workflowId: string): Promise<string> {
  const run = await api.get(`/api/runs/${runId}`);
  const events = await eventsOf(api, runId);
  const exported = await api.get(`/api/workflows/${workflowId}/export`);
  const history = await api.get(`/api/workflows/${workflowId}/runs`);
  const creds = await api.get('/api/credentials');
  return [run.text, events.map((e) => e.data).join('\n'), exported.text, history.text, creds.text].join('\n');
}

function expectNoSecret(text: string) {
  for (const s of SECRETS) expect(text).not.toContain(s);
}

describe('credentials are bound to hosts and never leak', () => {
  let fake: FakeOpenAi;
  let receiver: Receiver;
  let openaiCred: any;

  beforeAll(async () => {
    await waitPortFree(ports.openai);
    fake = await startFakeOpenAi(ports.openai);
    receiver = await startReceiver(ports.receiver);
  });

  afterAll(async () => {
    await fake?.close();
    await receiver?.close();
  });

  it('stores an OpenAI-compatible provider credential and shows it only masked', async () => {
    const created = await api.post('/api/credentials', {
      name: `Fake provider ${Date.now()}`,
      type: 'openai',
      data: { baseUrl: fake.baseURL, apiKey: API_KEY },
    });
    expect(created.status, created.text).toBe(201);
    openaiCred = created.body;
    expect(openaiCred).toMatchObject({
      type: 'openai',
      masked: `sk-…${API_KEY.slice(-4)}`,
      hosts: [`127.0.0.1:${ports.openai}`],
    });
    expectNoSecret(created.text);
    const one = await api.expectStatus(api.get(`/api/credentials/${openaiCred.id}`), 200);
    expect(one.masked).toBe(openaiCred.masked);
    const list = await api.get('/api/credentials');
    expect(list.body.map((c: any) => c.id)).toContain(openaiCred.id);
    expectNoSecret(list.text);
  });

  it('sends the key to the provider from an LLM node, and nowhere in the run, events or export', async () => {
    fake.script({ text: 'The fake provider answered.' });
    const before = fake.requests.length;
    const wf = await createWorkflow(api, `Credential LLM ${Date.now()}`, {
      nodes: [
        node('start', 'start', { inputs: [{ name: 'q', type: 'string', required: true }] }),
        node('llm', 'llm', { model: 'fake-chat', userPrompt: '{{inputs.q}}', credentialId: openaiCred.id }, 200),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{llm.output.text}}' }] }, 400),
      ],
      edges: chain('start', 'llm', 'end'),
    });
    const run = await runToEnd(api, wf, { q: 'Say something' });
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');
    expect(run.outputs.answer).toBe('The fake provider answered.');
    expect(fake.requests.length).toBe(before + 1);
    expect(fake.paths.at(-1)).toBe('/v1/chat/completions');
    expect(fake.tokens.at(-1)).toBe(API_KEY);
    expect(fake.requests.at(-1).model).toBe('fake-chat');
    expect(JSON.stringify(fake.requests.at(-1).messages)).toContain('Say something');
    expect(nodeOf(run, 'llm').output.text).toBe('The fake provider answered.');
    expectNoSecret(await everythingAbout(run.id, wf));
  });

  it('scrubs the key from a provider error that quotes it', async () => {
    fake.script({ status: 401 });
    const wf = await createWorkflow(api, `Credential LLM 401 ${Date.now()}`, {
      nodes: [
        node('start', 'start'),
        node('llm', 'llm', { model: 'fake-chat', userPrompt: 'hello', credentialId: openaiCred.id }, 200),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{llm.output.text}}' }] }, 400),
      ],
      edges: chain('start', 'llm', 'end'),
    });
    const run = await runToEnd(api, wf);
    expect(run.status).toBe('failed');
    // The provider did quote it (so scrubbing had something to do) …
    expect(fake.tokens.at(-1)).toBe(API_KEY);
    // … and what was stored says why without it.
    expect(nodeOf(run, 'llm').error).toMatchObject({ code: 'LLM_AUTH', details: { upstreamStatus: 401 } });
    expectNoSecret(await everythingAbout(run.id, wf));
  });

  it('refuses to send the provider key to a node’s own base URL on another host (provider.baseURL)', async () => {
    const before = { fake: fake.requests.length, receiver: receiver.requests.length };
    const wf = await createWorkflow(api, `Credential redirected ${Date.now()}`, {
      nodes: [
        node('start', 'start'),
        node(
          'llm',
          'llm',
          {
            model: 'fake-chat',
            userPrompt: 'hello',
            credentialId: openaiCred.id,
            provider: { baseUrl: `${receiver.url}/v1` },
          },
          200,
        ),
        node('end', 'end', { outputs: [{ name: 'answer', value: '{{llm.output.text}}' }] }, 400),
      ],
      edges: chain('start', 'llm', 'end'),
    });
    const run = await runToEnd(api, wf);
    expect(run.status).toBe('failed');
    expect(nodeOf(run, 'llm').error).toMatchObject({ code: 'SECRET_HOST_NOT_ALLOWED' });
    expect(receiver.requests.length).toBe(before.receiver);
    expect(fake.requests.length).toBe(before.fake);
    expectNoSecret(await everythingAbout(run.id, wf));
  });

  it('sends an HTTP credential to the host it is bound to, and not to another', async () => {
    const bound = await api.expectStatus(
      api.post('/api/credentials', {
        name: `Receiver bearer ${Date.now()}`,
        type: 'bearer',
        data: { token: BEARER },
        hosts: [`127.0.0.1:${ports.receiver}`],
      }),
      201,
    );
    expect(bound.masked).toBe(`Bearer tok…${BEARER.slice(-4)}`);
    // Host A is the fake provider's port; the node below calls the receiver (host B).
    const elsewhere = await api.expectStatus(
      api.post('/api/credentials', {
        name: `Provider-only header ${Date.now()}`,
        type: 'http_header',
        data: { name: 'X-Api-Key', value: HEADER_SECRET },
        hosts: [`127.0.0.1:${ports.openai}`],
      }),
      201,
    );
    const httpFlow = (credentialId: string) => ({
      nodes: [
        node('start', 'start'),
        node(
          'call',
          'http',
          { method: 'POST', url: `${receiver.url}/hook`, credentialId, bodyType: 'json', body: '{"x":1}' },
          200,
        ),
        node('end', 'end', { outputs: [{ name: 'status', value: '{{call.output.status}}' }] }, 400),
      ],
      edges: chain('start', 'call', 'end'),
    });

    const okFlow = await createWorkflow(api, `HTTP bound credential ${Date.now()}`, httpFlow(bound.id));
    const before = receiver.requests.length;
    const ok = await runToEnd(api, okFlow);
    expect(ok.status, JSON.stringify(ok.error)).toBe('succeeded');
    expect(receiver.requests.length).toBe(before + 1);
    expect(receiver.requests.at(-1)!.headers.authorization).toBe(`Bearer ${BEARER}`);
    expectNoSecret(await everythingAbout(ok.id, okFlow));

    const badFlow = await createWorkflow(api, `HTTP foreign credential ${Date.now()}`, httpFlow(elsewhere.id));
    const fakeBefore = fake.requests.length;
    const bad = await runToEnd(api, badFlow);
    expect(bad.status).toBe('failed');
    expect(nodeOf(bad, 'call')).toMatchObject({ status: 'failed', error: { code: 'SECRET_HOST_NOT_ALLOWED' } });
    expect(receiver.requests.length).toBe(before + 1);
    expect(fake.requests.length).toBe(fakeBefore);
    expectNoSecret(await everythingAbout(bad.id, badFlow));
  });
});
