// Guarantees: an /api/ path that no route serves answers a JSON 404 with a code and a message (never the editor's
// HTML page or a 500), for every method and whoever asks; names with control characters (NUL) are refused with 400
// and a path instead of failing in the database.
import { afterAll, expect, it } from 'vitest';
import * as unknown from '@/app/api/[...path]/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from '../api/api-helpers';

useFreshDataDir('paiflow-404-');
process.env.SEED_EXAMPLE = '0';

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

it('every method on an unknown /api/ path is a JSON 404', async () => {
  for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
    const a = await call(unknown[m], m, '/api/no/such/thing', { anonymous: true, body: m === 'GET' ? undefined : {} });
    expect(a.headers.get('content-type')).toMatch(/application\/json/);
    const e = expectError(a, 404, 'NOT_FOUND');
    expect(e.message).toContain('/api/no/such/thing');
  }
});

it('a workflow, node label or knowledge base name with a NUL is a 400 with its path', async () => {
  const wf = await call(createWf, 'POST', '/api/workflows', { body: { name: 'bad\u0000name', graph: simpleGraph() } });
  expectError(wf, 400, 'INVALID_CHARACTER', 'name');
  const graph = simpleGraph();
  graph.nodes[1].data.label = 'Greet\u0000ing';
  const label = await call(createWf, 'POST', '/api/workflows', { body: { name: 'ok', graph } });
  expect(label.status).toBe(400);
  expect(label.body.error.path).toBe('graph.nodes[1].data.label');
  const kb = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'kb\u0001' } });
  expectError(kb, 400, 'VALIDATION_ERROR', 'name');
});
