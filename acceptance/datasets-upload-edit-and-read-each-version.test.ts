/**
 * Guarantee: on the production server, an evaluation dataset uploaded as a CSV file keeps its Chinese text and its
 * expected columns, a past run becomes a row of it, and every change of the rows is a new version while the first
 * version still reads as it was uploaded — on every database profile.
 */
import { describe, expect, it } from 'vitest';
import { acceptance } from './support/context';
import { runToEnd } from './support/runs';

const { api } = acceptance();

describe('datasets', () => {
  it('an uploaded CSV is versioned, takes a past run as a row, and reads back per version', async () => {
    const form = new FormData();
    const csv = 'question,expected,tags\n"发票怎么开？",在订单页申请,zh\nWhere is my parcel?,In transit,en\n';
    form.append('file', new File([csv], 'support.csv', { type: 'text/csv' }));
    form.append('name', '客服数据集');
    const created = await api.expectStatus(api.post('/api/datasets', form), 201);
    expect(created).toMatchObject({ name: '客服数据集', rowCount: 2, version: 1 });

    const wf = await api.expectStatus(api.post('/api/workflows', { name: 'Echo for datasets' }), 201);
    const run = await runToEnd(api, wf.id, {});
    expect(run.status).toBe('succeeded');
    const added = await api.expectStatus(
      api.post(`/api/datasets/${created.id}/rows`, { runId: run.id, expectOutputs: true }),
      200,
    );
    expect(added).toMatchObject({ version: 2, rowCount: 3 });

    const now = await api.expectStatus(api.get(`/api/datasets/${created.id}`), 200);
    expect(now.rows[0]).toEqual({ inputs: { question: '发票怎么开？' }, expected: '在订单页申请', tags: ['zh'] });
    expect(now.rows[2]).toMatchObject({ inputs: run.inputs });
    const first = await api.expectStatus(api.get(`/api/datasets/${created.id}?version=1`), 200);
    expect(first.rows).toHaveLength(2);

    const list = await api.expectStatus(api.get('/api/datasets'), 200);
    expect(list.find((d: { id: string }) => d.id === created.id)).toMatchObject({ version: 2, rowCount: 3 });
  });
});
