// Guarantee: a NUL character (U+0000) anywhere in a request — a description, a node's config, a search query, the
// sign-in e-mail, a query-string parameter — is a 400 INVALID_CHARACTER naming the field, never a 500 from the
// database, and nothing is saved. The check is made once, where bodies and query strings are read.
import { afterAll, expect, it } from 'vitest';
import { POST as login } from '@/app/api/auth/login/route';
import { POST as search } from '@/app/api/knowledge-bases/[id]/search/route';
import { POST as createKb } from '@/app/api/knowledge-bases/route';
import { GET as listRuns } from '@/app/api/runs/route';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { call, expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from '../api/api-helpers';

useFreshDataDir('paiflow-nul-');
process.env.SEED_EXAMPLE = '0';

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

it('in a body: 400 with the path of the field, and nothing saved', async () => {
  const described = await call(createWf, 'POST', '/api/workflows', {
    body: { name: 'ok', description: 'line one\u0000', graph: simpleGraph() },
  });
  expectError(described, 400, 'INVALID_CHARACTER', 'description');

  const graph = simpleGraph();
  (graph.nodes[1].data as { config: { template: string } }).config.template = 'Hello\u0000{{inputs.message}}';
  const config = await call(createWf, 'POST', '/api/workflows', { body: { name: 'ok', graph } });
  expectError(config, 400, 'INVALID_CHARACTER', 'graph.nodes[1].data.config.template');
  expect((await call(listWf, 'GET', '/api/workflows')).body).toEqual([]);

  const kb = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'kb', description: '\u0000' } });
  expectError(kb, 400, 'INVALID_CHARACTER', 'description');

  const signIn = await call(login, 'POST', '/api/auth/login', {
    anonymous: true,
    body: { email: 'a\u0000@example.test', password: 'whatever-1' },
  });
  expectError(signIn, 400, 'INVALID_CHARACTER', 'email');
});

it('in a search query and a query string: 400 with the path', async () => {
  const kb = await call(createKb, 'POST', '/api/knowledge-bases', { body: { name: 'Handbook' } });
  expect(kb.status, kb.text).toBe(201);
  const q = await call(search, 'POST', `/api/knowledge-bases/${kb.body.id}/search`, {
    params: { id: kb.body.id },
    body: { query: 'dogs\u0000' },
  });
  expectError(q, 400, 'INVALID_CHARACTER', 'query');

  const runs = await call(listRuns, 'GET', '/api/runs?q=a%00b');
  expectError(runs, 400, 'INVALID_CHARACTER', 'query.q');
  expect((await call(listRuns, 'GET', '/api/runs?q=a%2500b')).status).toBe(200); // a literal "%00" is fine
});
