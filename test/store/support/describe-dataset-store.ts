/**
 * The DatasetStore conformance suite, written once and run on every database kind
 * (test/store/datasets-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatasetRow, DatasetStore } from '@/engine/store/datasets';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newId, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

const ROWS: DatasetRow[] = [
  { inputs: { question: '退货政策是什么？' }, expected: '30 天内可退货', tags: ['zh', 'policy'] },
  { inputs: { question: 'How do I reset my password?', n: 2 }, expected: { intent: 'account' } },
  { inputs: { question: 'no expectation' } },
];

export function describeDatasetStore(label: string, open: StoresFactory) {
  describe(`DatasetStore conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let datasets: DatasetStore;
    const ws = DEFAULT_WORKSPACE_ID;

    beforeAll(async () => {
      under = await open();
      datasets = under.stores.datasets;
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const create = (name = 'support cases', rows = ROWS) =>
      datasets.create({ id: newId('ds'), workspaceId: ws, name, description: '客服问答', rows });

    it('create keeps every row exactly, Chinese text included, as version 1', async () => {
      const d = await create();
      expect(d).toMatchObject({ workspaceId: ws, name: 'support cases', description: '客服问答', version: 1 });
      expect(d.rowCount).toBe(3);
      const read = await datasets.get(ws, d.id);
      expect(read?.rows).toEqual(ROWS);
      expect(read).toMatchObject({ version: 1, rowCount: 3 });
      expect(read!.createdAt).toBeInstanceOf(Date);
    });

    it('createFromJson stores rows given as JSON text exactly as version 1; what jsonb refuses made safe', async () => {
      const id = newId('ds');
      const rowsJson = JSON.stringify(ROWS);
      const d = await datasets.createFromJson({
        id,
        workspaceId: ws,
        name: 'uploaded',
        description: '',
        rowsJson,
        rowCount: 3,
      });
      expect(d).toMatchObject({ id, name: 'uploaded', version: 1, rowCount: 3 });
      expect((await datasets.get(ws, id))?.rows).toEqual(ROWS);
      const nul = newId('ds');
      const unsafe = JSON.stringify([{ inputs: { q: 'a\u0000b' } }]);
      await datasets.createFromJson({
        id: nul,
        workspaceId: ws,
        name: 'nul',
        description: '',
        rowsJson: unsafe,
        rowCount: 1,
      });
      expect((await datasets.get(ws, nul))?.rows).toEqual([{ inputs: { q: 'a\uFFFDb' } }]);
    });

    it('is found only in its own workspace: get, update, append and delete of another workspace miss it', async () => {
      const d = await create('private');
      const { workspaceId: other } = await newWorkspace(under.stores);
      expect(await datasets.get(other, d.id)).toBeNull();
      expect(await datasets.update(other, d.id, { name: 'taken' })).toBeNull();
      expect(await datasets.append(other, d.id, [{ inputs: {} }])).toBeNull();
      expect(await datasets.delete(other, d.id)).toBe(false);
      expect((await datasets.list(other)).map((x) => x.id)).not.toContain(d.id);
      expect(await datasets.get(ws, d.id)).toMatchObject({ name: 'private', version: 1, rowCount: 3 });
    });

    it('list gives summaries, newest first', async () => {
      const a = await create('older');
      await new Promise((r) => setTimeout(r, 5));
      const b = await create('newer');
      const ids = (await datasets.list(ws)).map((x) => x.id);
      expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
      expect((await datasets.list(ws)).find((x) => x.id === a.id)).not.toHaveProperty('rows');
    });

    it('new rows make the next version; every earlier version still reads as it was', async () => {
      const d = await create();
      const renamed = await datasets.update(ws, d.id, { name: 'renamed' });
      expect(renamed).toMatchObject({ name: 'renamed', version: 1, rows: ROWS });
      const edited = await datasets.update(ws, d.id, { rows: [ROWS[1]], description: 'edited' });
      expect(edited).toMatchObject({ version: 2, rowCount: 1, rows: [ROWS[1]], description: 'edited' });
      expect(edited!.updatedAt.getTime()).toBeGreaterThanOrEqual(d.updatedAt.getTime());
      expect(await datasets.get(ws, d.id, 1)).toMatchObject({ version: 1, rowCount: 3, rows: ROWS });
      expect(await datasets.get(ws, d.id)).toMatchObject({ version: 2, rowCount: 1 });
      expect(await datasets.get(ws, d.id, 3)).toBeNull();
    });

    it('appends at the same time both land, each as its own version', async () => {
      const d = await create('appended', [ROWS[0]]);
      const adds = Array.from({ length: 5 }, (_, i) => datasets.append(ws, d.id, [{ inputs: { i } }]));
      await Promise.all(adds);
      const now = await datasets.get(ws, d.id);
      expect(now).toMatchObject({ version: 6, rowCount: 6 });
      expect(now!.rows[0]).toEqual(ROWS[0]);
      expect(now!.rows.slice(1).map((r) => r.inputs.i)).toEqual(expect.arrayContaining([0, 1, 2, 3, 4]));
      expect((await datasets.get(ws, d.id, 2))!.rowCount).toBe(2);
    });

    it('delete removes the dataset and its versions once', async () => {
      const d = await create('doomed');
      await datasets.update(ws, d.id, { rows: [] });
      expect(await datasets.delete(ws, d.id)).toBe(true);
      expect(await datasets.delete(ws, d.id)).toBe(false);
      expect(await datasets.get(ws, d.id, 1)).toBeNull();
    });
  });
}
