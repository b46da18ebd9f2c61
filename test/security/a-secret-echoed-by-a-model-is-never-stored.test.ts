// Guarantee: a secret a node was given never reaches what the node produces, even when the server it calls answers
// with it (a model or debug endpoint echoing the Authorization header). The run record, the node's output, its
// trace events — streamed tokens included, also when the secret is split across tokens — and its error show
// "[redacted]" instead, for every node type: the runtime redacts in one place (engine/runtime/secret-echoes.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as createCred } from '@/app/api/credentials/route';
import { GET as getRun } from '@/app/api/runs/[runId]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { GivenSecrets } from '@/engine/runtime/secret-echoes';
import { getApp } from '@/lib/server/app';
import { call, useFreshDataDir, waitForRun } from '../api/api-helpers';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai-server';

useFreshDataDir('paiflow-echoed-secret-');
process.env.SEED_EXAMPLE = '0';

const KEY = 'sk-echoed-secret-4f9a2c7e1b';

let fake: FakeOpenAi;
let credentialId: string;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  process.env.HTTP_ALLOWLIST = new URL(fake.baseURL).host;
  await getApp();
  const c = await call(createCred, 'POST', '/api/credentials', {
    body: { name: 'Provider', type: 'openai', data: { baseUrl: fake.baseURL, apiKey: KEY } },
  });
  expect(c.status, c.text).toBe(201);
  credentialId = c.body.id;
});

afterAll(async () => {
  await (await getApp()).close();
  await fake.close();
});

async function runLlm(stream: boolean) {
  // The model answers with the request's own Authorization header, as a debugging proxy would.
  fake.setDefault(() => ({ text: `Your request came with Authorization: Bearer ${KEY} and nothing else.` }));
  const nodes = [
    { id: 'start', type: 'start', config: { inputs: [] } },
    { id: 'ask', type: 'llm', config: { model: 'fake', userPrompt: 'Echo my headers', credentialId, stream } },
    { id: 'end', type: 'end', config: { outputs: [{ name: 'answer', value: '{{ask.output.text}}' }] } },
  ];
  const graph = {
    nodes: nodes.map((n, i) => ({
      id: n.id,
      type: n.type,
      position: { x: i * 200, y: 0 },
      data: { config: n.config },
    })),
    edges: [
      { id: 'e1', source: 'start', target: 'ask' },
      { id: 'e2', source: 'ask', target: 'end' },
    ],
  };
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: `Echo ${stream}`, graph } });
  expect(wf.status, wf.text).toBe(201);
  const run = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
    params: { id: wf.body.id },
    body: { inputs: {} },
  });
  expect(run.status, run.text).toBe(202);
  const done = await waitForRun(getRun, run.body.runId);
  const events = await (await getApp()).store.getEvents(done.id);
  return { done, events };
}

describe.each([false, true])('an LLM node whose provider echoes its key (stream: %s)', (stream) => {
  it('stores and streams "[redacted]", never the key', async () => {
    const { done, events } = await runLlm(stream);
    expect(fake.tokens.at(-1)).toBe(KEY); // the key was really sent
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.outputs.answer).toBe('Your request came with Authorization: Bearer [redacted] and nothing else.');
    expect(JSON.stringify(done)).not.toContain(KEY);
    expect(JSON.stringify(events)).not.toContain(KEY);
    if (stream) {
      const tokens = events.filter((e) => e.type === 'node.token').map((e) => e.data.delta as string);
      expect(tokens.join('')).toBe('Your request came with Authorization: Bearer [redacted] and nothing else.');
    }
  });
});

describe('the stream redactor', () => {
  it('removes a secret split across deltas, holding back only what could still become one', () => {
    const given = new GivenSecrets([KEY]);
    const s = given.stream();
    const shown = [s.push('key: sk-ec'), s.push('hoed-secret'), s.push('-4f9a2c7e1b, done'), s.flush()];
    expect(shown.join('')).toBe('key: [redacted], done');
    expect(shown[0]).toBe('key: '); // "sk-ec" could be the start of the key: held back
    expect(given.stream().push('plain text')).toBe('plain text');
  });

  it('lets a held-back tail go when it turns out not to be the secret', () => {
    const s = new GivenSecrets([KEY]).stream();
    expect(s.push('the sk-e')).toBe('the ');
    expect(s.push('xample')).toBe('sk-example');
    expect(s.flush()).toBe('');
  });
});
