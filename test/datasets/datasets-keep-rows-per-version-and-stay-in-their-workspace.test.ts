/**
 * Guarantees of the datasets API (issue 36): a dataset is created from JSON rows or an uploaded CSV / JSONL file
 * (Chinese text intact; `expected`, `expected.<field>` and `tags` columns read as such); a file that is neither is a
 * 400 naming the line; every change of the rows is a new version and each earlier version reads as it was; a past
 * run's inputs (and outputs as the expectation) become a row; another workspace's dataset is a 404 and a viewer may
 * only read; bad input is a 4xx with a code and a path, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE as deleteDataset, GET as getDataset, PATCH as patchDataset } from '@/app/api/datasets/[id]/route';
import { POST as appendRows } from '@/app/api/datasets/[id]/rows/route';
import { GET as listDatasets, POST as createDataset } from '@/app/api/datasets/route';
import { getApp } from '@/lib/server/app';
import { createTenancy, type Tenancy } from '../auth/support/tenancy';
import { call, expectError, expectNoServerErrorsOrStacks, useFreshDataDir } from '../api/api-helpers';

useFreshDataDir('paiflow-datasets-api-');

async function multipart(fields: Record<string, string | File>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const r = new Response(form);
  return { raw: new Uint8Array(await r.arrayBuffer()), type: r.headers.get('content-type')! };
}

let t: Tenancy;
beforeAll(async () => {
  t = await createTenancy();
}, 120_000);
afterAll(async () => {
  expectNoServerErrorsOrStacks();
  await (await getApp()).close();
});

const create = (headers: Record<string, string>, body: unknown) =>
  call(createDataset, 'POST', '/api/datasets', { headers, body });
const upload = async (headers: Record<string, string>, fields: Record<string, string | File>) => {
  const { raw, type } = await multipart(fields);
  return call(createDataset, 'POST', '/api/datasets', { headers: { ...headers, 'content-type': type }, raw });
};
const get = (headers: Record<string, string>, id: string, query = '') =>
  call(getDataset, 'GET', `/api/datasets/${id}${query}`, { headers, params: { id } });
const patch = (headers: Record<string, string>, id: string, body: unknown) =>
  call(patchDataset, 'PATCH', `/api/datasets/${id}`, { headers, body, params: { id } });
const append = (headers: Record<string, string>, id: string, body: unknown) =>
  call(appendRows, 'POST', `/api/datasets/${id}/rows`, { headers, body, params: { id } });

describe('creating a dataset', () => {
  it('from JSON rows answers 201 with its id and row count, and reads back every row', async () => {
    const rows = [
      { inputs: { question: '怎么退货？' }, expected: '30 天内', tags: ['zh'] },
      { inputs: { question: 'Shipping time?' } },
    ];
    const c = await create(t.editorA.headers, { name: '客服评测', rows });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ name: '客服评测', rowCount: 2, version: 1 });
    const read = await get(t.viewerA.headers, c.body.id);
    expect(read.status, read.text).toBe(200);
    expect(read.body.rows).toEqual(rows);
    const list = await call(listDatasets, 'GET', '/api/datasets', { headers: t.viewerA.headers });
    expect(list.body.map((d: { id: string }) => d.id)).toContain(c.body.id);
    expect(list.body[0]).not.toHaveProperty('rows');
  });

  it('from a CSV file reads expected, expected.<field> and tags columns; the rest are inputs', async () => {
    const csv =
      '\uFEFFquestion,lang,expected,expected.intent,tags\n' +
      '"我的订单在哪里？",zh,正在配送,tracking,"zh, orders"\n' +
      'Cancel my plan,en,Cancelled,billing,\n';
    const c = await upload(t.editorA.headers, { file: new File([csv], 'support cases.csv', { type: 'text/csv' }) });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ name: 'support cases', rowCount: 2 });
    const rows = (await get(t.editorA.headers, c.body.id)).body.rows;
    expect(rows[0]).toEqual({
      inputs: { question: '我的订单在哪里？', lang: 'zh' },
      expected: { value: '正在配送', intent: 'tracking' },
      tags: ['zh', 'orders'],
    });
    expect(rows[1]).toEqual({
      inputs: { question: 'Cancel my plan', lang: 'en' },
      expected: { value: 'Cancelled', intent: 'billing' },
    });
  });

  it('from a JSONL file takes one row object per line, with the name given', async () => {
    const jsonl = '{"inputs":{"q":"一"},"expected":1}\n\n{"inputs":{"q":"二"},"expected":2,"tags":["x"]}\n';
    const c = await upload(t.editorA.headers, { file: new File([jsonl], 'rows.jsonl'), name: 'Numbers 数字' });
    expect(c.status, c.text).toBe(201);
    expect(c.body).toMatchObject({ name: 'Numbers 数字', rowCount: 2 });
    expect((await get(t.editorA.headers, c.body.id)).body.rows[1]).toEqual({
      inputs: { q: '二' },
      expected: 2,
      tags: ['x'],
    });
  });

  it('refuses a broken file with the line, a row of the wrong shape with its path, and saves nothing', async () => {
    const before = (await call(listDatasets, 'GET', '/api/datasets', { headers: t.editorA.headers })).body.length;
    const broken = await upload(t.editorA.headers, { file: new File(['{"inputs":{}}\n{not json'], 'x.jsonl') });
    expectError(broken, 400, 'DATASET_FILE_UNREADABLE', 'file');
    expect(broken.body.error.message).toContain('line 2');
    const shape = await upload(t.editorA.headers, { file: new File(['{"inputs":{},"expect":1}'], 'x.jsonl') });
    expectError(shape, 400, 'UNKNOWN_KEY', 'rows[0].expect');
    const empty = await upload(t.editorA.headers, { file: new File(['question\n'], 'x.csv') });
    expectError(empty, 400, 'DATASET_FILE_UNREADABLE', 'file');
    const unknownField = await upload(t.editorA.headers, { file: new File(['a\n1'], 'x.csv'), owner: 'me' });
    expectError(unknownField, 400, 'UNKNOWN_KEY', 'owner');
    const unknownKey = await create(t.editorA.headers, { name: 'x', rows: [], colour: 'red' });
    expectError(unknownKey, 400, 'UNKNOWN_KEY', 'colour');
    const noInputs = await create(t.editorA.headers, { name: 'x', rows: [{ expected: 1 }] });
    expectError(noInputs, 400, 'VALIDATION_ERROR', 'rows[0].inputs');
    expect((await call(listDatasets, 'GET', '/api/datasets', { headers: t.editorA.headers })).body.length).toBe(before);
  });
});

describe('versions', () => {
  it('new rows are the next version; ?version=1 still reads the first rows', async () => {
    const c = await create(t.editorA.headers, { name: 'versioned', rows: [{ inputs: { n: 1 } }] });
    const p = await patch(t.editorA.headers, c.body.id, { rows: [{ inputs: { n: 1 } }, { inputs: { n: 2 } }] });
    expect(p.status, p.text).toBe(200);
    expect(p.body).toMatchObject({ version: 2, rowCount: 2 });
    const renamed = await patch(t.editorA.headers, c.body.id, { name: 'renamed' });
    expect(renamed.body).toMatchObject({ name: 'renamed', version: 2 });
    const first = await get(t.editorA.headers, c.body.id, '?version=1');
    expect(first.body).toMatchObject({ version: 1, rowCount: 1, rows: [{ inputs: { n: 1 } }] });
    expectError(await get(t.editorA.headers, c.body.id, '?version=9'), 404, 'DATASET_NOT_FOUND');
    expectError(await get(t.editorA.headers, c.body.id, '?version=two'), 400, 'VALIDATION_ERROR', 'version');
  });

  it("a past run's inputs, and its outputs as the expectation, become a row", async () => {
    const c = await create(t.editorA.headers, { name: 'from runs', rows: [] });
    const a = await append(t.editorA.headers, c.body.id, { runId: t.runA, expectOutputs: true, tags: ['prod'] });
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ version: 2, rowCount: 1 });
    const row = (await get(t.editorA.headers, c.body.id)).body.rows[0];
    expect(row.inputs).toEqual({ message: 'hi' });
    expect(row.expected).toBeTruthy();
    expect(row.tags).toEqual(['prod']);
    const given = await append(t.editorA.headers, c.body.id, { rows: [{ inputs: { message: 'bye' } }] });
    expect(given.body).toMatchObject({ version: 3, rowCount: 2 });
    expectError(await append(t.editorA.headers, c.body.id, { runId: 'run_nope' }), 404, 'RUN_NOT_FOUND');
    expectError(await append(t.editorA.headers, c.body.id, {}), 400, 'VALIDATION_ERROR', 'rows');
    expectError(
      await append(t.editorA.headers, c.body.id, { runId: t.runA, expect: true }),
      400,
      'UNKNOWN_KEY',
      'expect',
    );
  });
});

describe('workspaces and roles', () => {
  it("another workspace's dataset is 404 to read, edit, add to and delete", async () => {
    const c = await create(t.ownerA.headers, { name: 'A only', rows: [{ inputs: { a: 1 } }] });
    const id = c.body.id;
    expectError(await get(t.ownerB.headers, id), 404, 'DATASET_NOT_FOUND');
    expectError(await patch(t.ownerB.headers, id, { name: 'stolen' }), 404, 'DATASET_NOT_FOUND');
    expectError(await append(t.ownerB.headers, id, { rows: [{ inputs: {} }] }), 404, 'DATASET_NOT_FOUND');
    expectError(await append(t.ownerB.headers, id, {}), 404, 'DATASET_NOT_FOUND');
    const del = await call(deleteDataset, 'DELETE', `/api/datasets/${id}`, {
      headers: t.ownerB.headers,
      params: { id },
    });
    expectError(del, 404, 'DATASET_NOT_FOUND');
    // Nor may workspace B add workspace A's run to its own dataset.
    const b = await create(t.ownerB.headers, { name: 'B set', rows: [] });
    expectError(await append(t.ownerB.headers, b.body.id, { runId: t.runA }), 404, 'RUN_NOT_FOUND');
    expect((await get(t.ownerA.headers, id)).body).toMatchObject({ name: 'A only', version: 1 });
  });

  it('a viewer reads but may not create, edit or delete; an editor deletes once', async () => {
    const c = await create(t.editorA.headers, { name: 'guarded', rows: [] });
    const id = c.body.id;
    expect((await create(t.viewerA.headers, { name: 'no', rows: [] })).status).toBe(403);
    expect((await patch(t.viewerA.headers, id, { name: 'no' })).status).toBe(403);
    const del = (headers: Record<string, string>) =>
      call(deleteDataset, 'DELETE', `/api/datasets/${id}`, { headers, params: { id } });
    expect((await del(t.viewerA.headers)).status).toBe(403);
    expect((await del(t.editorA.headers)).status).toBe(204);
    expectError(await del(t.editorA.headers), 404, 'DATASET_NOT_FOUND');
  });
});
