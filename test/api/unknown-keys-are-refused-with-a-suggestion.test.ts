// Guarantees: a key the API does not know is said to be wrong, never dropped in silence. In a request body — at the
// top or nested (a credential's `data.baseURL`) — it is a 400 UNKNOWN_KEY with the key's JSON path, a message naming
// it and, when a known key is close, `did you mean "…"?` and `details.suggestion`; nothing is saved. In a node's
// config (`temprature`) it refuses a normal save and comes back from validate, a draft autosave stores it as a
// problem of that node (like any INVALID_CONFIG problem), and a run or a publish of that draft is refused with the
// path. In Chinese the code, path and suggestion stay and the message is Chinese. Nothing of it is ever a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as listCreds, POST as createCred } from '@/app/api/credentials/route';
import { POST as publishWf } from '@/app/api/workflows/[id]/publish/route';
import { GET as getWf, PUT as putWf } from '@/app/api/workflows/[id]/route';
import { POST as startRun } from '@/app/api/workflows/[id]/runs/route';
import { POST as validateWf } from '@/app/api/workflows/[id]/validate/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from './api-helpers';
import { workflowCount } from './invalid-graph-cases';

useFreshDataDir('paiflow-unknown-keys-');

beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

/** start → llm (with `config`) → end. */
function llmGraph(config: Record<string, unknown>) {
  return {
    nodes: [
      { id: 'start', type: 'start', data: { config: { inputs: [{ name: 'q', type: 'string' }] } } },
      { id: 'ask', type: 'llm', data: { config: { userPrompt: '{{inputs.q}}', ...config } } },
      { id: 'end', type: 'end', data: { config: { outputs: [{ name: 'a', value: '{{ask.output.text}}' }] } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'ask' },
      { id: 'e2', source: 'ask', target: 'end' },
    ],
  };
}

describe('request bodies', () => {
  it('an unknown top-level key is a 400 with its path and the key it was meant to be; nothing is saved', async () => {
    const before = await workflowCount();
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Typo', descripton: 'spelt wrong', graph: simpleGraph() },
    });
    const err = expectError(a, 400, 'UNKNOWN_KEY', 'descripton');
    expect(err.message).toBe('unknown key "descripton" — did you mean "description"?');
    expect(a.body.error.details).toEqual({ key: 'descripton', suggestion: 'description' });
    expect(err.errors?.[0]).toMatchObject({ code: 'UNKNOWN_KEY', path: 'descripton' });
    expect(await workflowCount()).toBe(before);
  });

  it('a nested unknown key — a credential’s data.baseURL — is refused, not sent to api.openai.com', async () => {
    const a = await call(createCred, 'POST', '/api/credentials', {
      body: { name: 'Local', type: 'openai', data: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-test-123456' } },
    });
    const err = expectError(a, 400, 'UNKNOWN_KEY', 'data.baseURL');
    expect(err.message).toBe('unknown key "baseURL" — did you mean "baseUrl"?');
    expect(a.body.error.details).toEqual({ key: 'baseURL', suggestion: 'baseUrl' });
    const listed = await call(listCreds, 'GET', '/api/credentials');
    expect(listed.body.filter((c: { name: string }) => c.name === 'Local')).toEqual([]);
  });

  it('a key with no close known key is named without a suggestion', async () => {
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Runs', graph: simpleGraph() } });
    expect(wf.status).toBe(201);
    const a = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
      params: { id: wf.body.id },
      body: { inputs: { message: 'hi' }, priority: 'high' },
    });
    const err = expectError(a, 400, 'UNKNOWN_KEY', 'priority');
    expect(err.message).toBe('unknown key "priority"');
    expect(a.body.error.details).toEqual({ key: 'priority' });
    const typo = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
      params: { id: wf.body.id },
      body: { input: { message: 'hi' } },
    });
    expect(expectError(typo, 400, 'UNKNOWN_KEY', 'input').message).toContain('did you mean "inputs"?');
  });

  it('free-form values stay free-form: run inputs take any names', async () => {
    const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'Free', graph: simpleGraph() } });
    const a = await call(startRun, 'POST', `/api/workflows/${wf.body.id}/runs`, {
      params: { id: wf.body.id },
      body: { inputs: { message: 'hi', anythingElse: { deep: true } } },
    });
    expect(a.status, a.text).toBe(202);
  });

  it('in Chinese: the same code, path and suggestion, with a Chinese message', async () => {
    const a = await call(createCred, 'POST', '/api/credentials', {
      body: { name: 'Local', type: 'openai', data: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-test-123456' } },
      headers: { 'accept-language': 'zh-CN' },
    });
    expectError(a, 400, 'UNKNOWN_KEY', 'data.baseURL');
    expect(a.body.error.message).toMatch(/[\u3400-\u9fff]/);
    expect(a.body.error.detail).toBe('unknown key "baseURL" — did you mean "baseUrl"?');
    expect(a.body.error.details).toEqual({ key: 'baseURL', suggestion: 'baseUrl' });
  });
});

describe('a node config key the node does not know (temperature spelt "temprature")', () => {
  const path = 'nodes[1].data.config.temprature';
  const suggestion = { key: 'temprature', suggestion: 'temperature' };

  it('refuses a normal save with 400, the path and the suggestion; nothing is saved', async () => {
    const before = await workflowCount();
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Hot', graph: llmGraph({ temprature: 1.5 }) },
    });
    const err = expectError(a, 400, 'UNKNOWN_KEY', `graph.${path}`);
    expect(err.message).toContain('unknown key "temprature" — did you mean "temperature"?');
    expect(a.body.error.details).toEqual(suggestion);
    expect(err.errors).toEqual([expect.objectContaining({ code: 'UNKNOWN_KEY', path: `graph.${path}` })]);
    expect(await workflowCount()).toBe(before);
  });

  it('a nested one (the provider’s old baseURL) is refused at its own path', async () => {
    const a = await call(createWf, 'POST', '/api/workflows', {
      body: { name: 'Old', graph: llmGraph({ provider: { baseURL: 'https://api.deepseek.com/v1' } }) },
    });
    expectError(a, 400, 'UNKNOWN_KEY', 'graph.nodes[1].data.config.provider.baseURL');
    expect(a.body.error.details).toEqual({ key: 'baseURL', suggestion: 'baseUrl' });
  });

  let draftId: string;

  it('a draft autosave stores it and answers it as a problem of that node', async () => {
    const a = await call(createWf, 'POST', '/api/workflows?draft=1', {
      body: { name: 'Draft', graph: llmGraph({ temprature: 1.5 }) },
    });
    expect(a.status, a.text).toBe(201);
    draftId = a.body.id;
    const problem = { code: 'UNKNOWN_KEY', path, nodeIds: ['ask'], details: suggestion };
    expect(a.body.problems).toEqual([expect.objectContaining(problem)]);
    const read = await call(getWf, 'GET', `/api/workflows/${draftId}`, { params: { id: draftId } });
    expect(read.body.graph.nodes[1].data.config.temprature).toBe(1.5);
    expect(read.body.problems).toEqual([expect.objectContaining(problem)]);
    const put = await call(putWf, 'PUT', `/api/workflows/${draftId}?draft=1`, {
      params: { id: draftId },
      body: { graph: llmGraph({ temprature: 1.2 }) },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.problems).toEqual([expect.objectContaining(problem)]);
  });

  it('validate names it', async () => {
    const a = await call(validateWf, 'POST', `/api/workflows/${draftId}/validate`, { params: { id: draftId } });
    expect(a.status).toBe(200);
    expect(a.body.ok).toBe(false);
    expect(a.body.errors).toEqual([expect.objectContaining({ code: 'UNKNOWN_KEY', path, details: suggestion })]);
  });

  it('a non-draft save refuses it and keeps the stored draft as it was', async () => {
    const a = await call(putWf, 'PUT', `/api/workflows/${draftId}`, {
      params: { id: draftId },
      body: { graph: llmGraph({ temprature: 0.3 }) },
    });
    expectError(a, 400, 'UNKNOWN_KEY', `graph.${path}`);
    const read = await call(getWf, 'GET', `/api/workflows/${draftId}`, { params: { id: draftId } });
    expect(read.body.graph.nodes[1].data.config.temprature).toBe(1.2);
  });

  it('a run and a publish of that draft are refused with the path (422: the stored draft is wrong)', async () => {
    const run = await call(startRun, 'POST', `/api/workflows/${draftId}/runs`, {
      params: { id: draftId },
      body: { inputs: { q: 'hi' } },
    });
    expectError(run, 422, 'UNKNOWN_KEY', path);
    expect(run.body.error.details).toEqual(suggestion);
    const pub = await call(publishWf, 'POST', `/api/workflows/${draftId}/publish`, { params: { id: draftId } });
    expectError(pub, 422, 'UNKNOWN_KEY', `graph.${path}`);
    expect(pub.body.error.details).toEqual(suggestion);
  });

  it('fixed, the draft saves, runs and publishes', async () => {
    const a = await call(putWf, 'PUT', `/api/workflows/${draftId}`, {
      params: { id: draftId },
      body: { graph: llmGraph({ temperature: 1.2 }) },
    });
    expect(a.status, a.text).toBe(200);
    expect(a.body.problems).toEqual([]);
    const run = await call(startRun, 'POST', `/api/workflows/${draftId}/runs`, {
      params: { id: draftId },
      body: { inputs: { q: 'hi' } },
    });
    expect(run.status, run.text).toBe(202);
  });
});
