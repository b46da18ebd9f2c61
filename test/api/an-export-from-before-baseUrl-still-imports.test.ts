// Guarantees: an export made before node configs said `provider.baseUrl` (format version 1, its nodes saying
// `provider.baseURL`, an agent team's roles too) imports as a workflow with no problems, in today's spelling; an
// export of today's format (2) that says `baseURL` is imported as a draft whose problem names the key and its right
// spelling; today's exports say format 2 and import back unchanged; unknown keys in the document are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as exportWf } from '@/app/api/workflows/[id]/export/route';
import { POST as importWf } from '@/app/api/workflows/import/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from './api-helpers';

useFreshDataDir('paiflow-import-old-');
beforeAll(async () => {
  await getApp();
});
afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

function graphSaying(key: 'baseURL' | 'baseUrl') {
  const provider = { [key]: 'https://api.deepseek.com/v1', apiKeySecret: 'DEEPSEEK' };
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: { config: { inputs: [] } } },
      { id: 'ask', type: 'llm', position: { x: 1, y: 0 }, data: { config: { userPrompt: 'hi', provider } } },
      {
        id: 'team',
        type: 'multi_agent',
        position: { x: 2, y: 0 },
        data: { config: { task: 'plan it', planner: { provider }, worker: { provider }, reviewer: { provider } } },
      },
      { id: 'end', type: 'end', position: { x: 3, y: 0 }, data: { config: { outputs: [] } } },
    ],
    edges: [
      { id: 'e1', source: 'start', target: 'ask' },
      { id: 'e2', source: 'ask', target: 'team' },
      { id: 'e3', source: 'team', target: 'end' },
    ],
  };
}

const doc = (formatVersion: number, graph: unknown) => ({
  format: 'paiflow.workflow',
  formatVersion,
  exportedAt: '2026-11-30T10:00:00.000Z',
  workflow: { name: 'Providers', description: '', engine: 'auto', graph },
});

describe('importing', () => {
  it('a format-1 export with provider.baseURL gives a workflow without problems, saying baseUrl', async () => {
    const a = await call(importWf, 'POST', '/api/workflows/import', { body: doc(1, graphSaying('baseURL')) });
    expect(a.status, a.text).toBe(201);
    expect(a.body.problems).toEqual([]);
    expect(a.body.graph).toEqual(graphSaying('baseUrl'));

    const exported = await call(exportWf, 'GET', `/api/workflows/${a.body.id}/export`, { params: { id: a.body.id } });
    expect(exported.body.formatVersion).toBe(2);
    const again = await call(importWf, 'POST', '/api/workflows/import', { body: exported.body });
    expect(again.status, again.text).toBe(201);
    expect({ graph: again.body.graph, problems: again.body.problems }).toEqual({
      graph: graphSaying('baseUrl'),
      problems: [],
    });
  });

  it('a format-2 export that says baseURL is a draft whose problems name the right spelling', async () => {
    const a = await call(importWf, 'POST', '/api/workflows/import', { body: doc(2, graphSaying('baseURL')) });
    expect(a.status, a.text).toBe(201);
    expect(a.body.problems.map((p: any) => [p.code, p.path, p.details?.suggestion])).toEqual([
      ['UNKNOWN_KEY', 'nodes[1].data.config.provider.baseURL', 'baseUrl'],
      ['UNKNOWN_KEY', 'nodes[2].data.config.planner.provider.baseURL', 'baseUrl'],
      ['UNKNOWN_KEY', 'nodes[2].data.config.worker.provider.baseURL', 'baseUrl'],
      ['UNKNOWN_KEY', 'nodes[2].data.config.reviewer.provider.baseURL', 'baseUrl'],
    ]);
  });

  it('an unknown key of the document itself is refused', async () => {
    const a = await call(importWf, 'POST', '/api/workflows/import', {
      body: { ...doc(2, graphSaying('baseUrl')), fromatVersion: 2 },
    });
    expect(expectError(a, 400, 'UNKNOWN_KEY', 'fromatVersion').message).toContain('did you mean "formatVersion"?');
  });
});
