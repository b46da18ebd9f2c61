// Guarantee: a `__proto__` key anywhere in a JSON body is refused with 400 RESERVED_KEY and its path, also when an
// escape spells it, so its contents can never become inherited fields of the object it would be copied into (a
// node config whose "__proto__" holds a `url` would otherwise be read as having that url). Nothing is saved.
import { afterAll, expect, it } from 'vitest';
import { GET as listWf, POST as createWf } from '@/app/api/workflows/route';
import { getApp } from '@/lib/server/app';
import { expectError, expectNoServerErrorsOrStacks, simpleGraph, useFreshDataDir } from '../api/api-helpers';

useFreshDataDir('paiflow-proto-');
process.env.SEED_EXAMPLE = '0';

afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

async function post(text: string) {
  await getApp();
  const res = await createWf(
    new Request('http://localhost/api/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await ownerHeaders()) },
      body: text,
    }),
    { params: Promise.resolve({}) },
  );
  return { status: res.status, text: await res.text(), headers: res.headers, body: undefined as any };
}

async function ownerHeaders(): Promise<Record<string, string>> {
  const { ownerToken } = await import('../support/owner');
  return { authorization: `Bearer ${await ownerToken(await getApp())}` };
}

it.each([
  ['as written', '"__proto__"'],
  ['spelt with an escape', '"\\u005f_proto__"'],
])('in a node config, %s: 400 RESERVED_KEY at its path', async (_how, key) => {
  const graph = JSON.stringify(simpleGraph()).replace('"config":{', `"config":{${key}:{"template":"x"},`);
  const a = await post(`{"name":"proto","graph":${graph}}`);
  a.body = JSON.parse(a.text);
  expectError(a as never, 400, 'RESERVED_KEY', 'graph.nodes[0].data.config.__proto__');
  const listed = await listWf(new Request('http://localhost/api/workflows', { headers: await ownerHeaders() }), {
    params: Promise.resolve({}),
  });
  expect(await listed.json()).toEqual([]);
});
