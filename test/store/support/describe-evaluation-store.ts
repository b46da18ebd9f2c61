/**
 * The EvaluationStore conformance suite, written once and run on every database kind
 * (test/store/evaluations-are-stored-alike-on-both-databases.conformance.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationStore, NewEvaluation, RowResult } from '@/engine/store/evaluations';
import { DEFAULT_WORKSPACE_ID } from '@/engine/store/types';
import { newId, newWorkflow, newWorkspace, type StoresFactory, type StoresUnderTest } from './stores-under-test';

const scored = (score: number): RowResult => ({
  status: 'scored',
  outputs: { answer: '可以退货' },
  scores: { exact: { score, passed: score === 1, ...(score === 1 ? {} : { reason: '不一致' }) } },
  error: null,
  durationMs: 120,
  costUsd: 0.0001,
});

export function describeEvaluationStore(label: string, open: StoresFactory) {
  describe(`EvaluationStore conformance on ${label}`, () => {
    let under: StoresUnderTest;
    let evaluations: EvaluationStore;
    let workflowId: string;
    const ws = DEFAULT_WORKSPACE_ID;

    beforeAll(async () => {
      under = await open();
      evaluations = under.stores.evaluations;
      workflowId = await newWorkflow(under.stores, 'evaluated');
    });
    afterAll(async () => {
      await under?.dispose();
    });

    const create = (rows = 3, extra: Partial<NewEvaluation> = {}) =>
      evaluations.create({
        id: newId('ev'),
        workspaceId: ws,
        workflowId,
        version: null,
        versionId: null,
        graph: { nodes: [], edges: [] },
        engine: 'auto',
        datasetId: 'ds_x',
        datasetVersion: 2,
        datasetName: '客服',
        scorers: [{ name: 'exact', type: 'exact' }],
        concurrency: 2,
        purpose: 'manual',
        createdBy: null,
        rows: Array.from({ length: rows }, (_, i) => ({
          inputs: { question: `问题 ${i}` },
          ...(i % 2 ? {} : { expected: { answer: '可以退货' } }),
          ...(i === 0 ? { tags: ['zh'] } : {}),
        })),
        ...extra,
      });

    it('create copies the rows in, all pending, and reads back in its workspace only', async () => {
      const ev = await create();
      expect(ev).toMatchObject({ status: 'queued', datasetVersion: 2, datasetName: '客服', engine: 'auto' });
      expect(ev.progress).toEqual({ total: 3, done: 0, running: 0, pending: 3 });
      const rows = await evaluations.rows(ev.id);
      expect(rows.map((r) => [r.index, r.status, r.inputs, r.expected, r.tags])).toEqual([
        [0, 'pending', { question: '问题 0' }, { answer: '可以退货' }, ['zh']],
        [1, 'pending', { question: '问题 1' }, undefined, []],
        [2, 'pending', { question: '问题 2' }, { answer: '可以退货' }, []],
      ]);
      const other = await newWorkspace(under.stores);
      expect(await evaluations.get(other.workspaceId, ev.id)).toBeNull();
      expect(await evaluations.list(other.workspaceId, workflowId, 10)).toEqual([]);
      expect((await evaluations.list(ws, workflowId, 10)).map((e) => e.id)).toContain(ev.id);
    });

    it('lists a workflow’s evaluations newest first, page after page without gaps or repeats', async () => {
      const wf = await newWorkflow(under.stores, 'paged');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await create(1, { workflowId: wf })).id);
      const all = (await evaluations.list(ws, wf, 100)).map((e) => e.id);
      expect([...all].sort()).toEqual([...made].sort());
      const pages: string[][] = [];
      let after: { createdAt: Date; id: string } | undefined;
      for (;;) {
        const page = await evaluations.list(ws, wf, 2, after);
        if (!page.length) break;
        pages.push(page.map((e) => e.id));
        const last = page.at(-1)!;
        after = { createdAt: last.createdAt, id: last.id };
      }
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual(all);
    });

    it('one driver at a time: a live claim excludes others, a stale one is taken over', async () => {
      const ev = await create();
      const now = new Date();
      expect(await evaluations.claim(ev.id, 'a', new Date(now.getTime() - 30_000))).toBe(true);
      expect(await evaluations.claim(ev.id, 'b', new Date(now.getTime() - 30_000))).toBe(false);
      expect((await evaluations.get(ws, ev.id))?.status).toBe('running');
      expect(await evaluations.heartbeat(ev.id, 'a')).toBe(true);
      expect(await evaluations.heartbeat(ev.id, 'b')).toBe(false);
      expect((await evaluations.orphans(new Date(now.getTime() - 30_000))).map((o) => o.id)).not.toContain(ev.id);
      // Seconds later, nobody renewed: b may take it over, and a's heartbeat says it lost it.
      const later = new Date(Date.now() + 60_000);
      expect((await evaluations.orphans(later)).map((o) => o.id)).toContain(ev.id);
      expect(await evaluations.claim(ev.id, 'b', later)).toBe(true);
      expect(await evaluations.heartbeat(ev.id, 'a')).toBe(false);
    });

    it('a row keeps its run and its first result; progress counts what ended', async () => {
      const ev = await create();
      await evaluations.setRowRun(ev.id, 0, 'run_a');
      await evaluations.finishRow(ev.id, 0, scored(1));
      await evaluations.finishRow(ev.id, 0, scored(0));
      await evaluations.setRowRun(ev.id, 1, 'run_b');
      const rows = await evaluations.rows(ev.id);
      expect(rows[0]).toMatchObject({ runId: 'run_a', status: 'scored', scores: { exact: { score: 1 } } });
      expect(rows[0]).toMatchObject({ outputs: { answer: '可以退货' }, durationMs: 120, costUsd: 0.0001 });
      expect(rows[1]).toMatchObject({ runId: 'run_b', status: 'running', scores: null });
      expect((await evaluations.get(ws, ev.id))?.progress).toEqual({ total: 3, done: 1, running: 1, pending: 1 });
    });

    it('finishing ends it once; cancelling leaves the rows not started cancelled', async () => {
      const ev = await create();
      await evaluations.finishRow(ev.id, 0, scored(1));
      expect(await evaluations.finish(ev.id, 'cancelled', { code: 'EVALUATION_CANCELLED', message: 'stop' })).toBe(
        true,
      );
      expect(await evaluations.finish(ev.id, 'succeeded')).toBe(false);
      const after = await evaluations.get(ws, ev.id);
      expect(after).toMatchObject({ status: 'cancelled', error: { code: 'EVALUATION_CANCELLED' } });
      expect(after?.finishedAt).toBeInstanceOf(Date);
      expect((await evaluations.rows(ev.id)).map((r) => r.status)).toEqual(['scored', 'cancelled', 'cancelled']);
      expect(await evaluations.claim(ev.id, 'a', new Date())).toBe(false);
      expect((await evaluations.orphans(new Date(Date.now() + 60_000))).map((o) => o.id)).not.toContain(ev.id);
    });

    it('a gate is stored per workflow, replaced, and removed', async () => {
      const gate = { datasetId: 'ds_g', scorers: [{ name: 'exact', type: 'exact' }], minMean: { exact: 0.9 } };
      expect(await evaluations.getGate(workflowId)).toBeNull();
      await evaluations.setGate(workflowId, gate);
      expect(await evaluations.getGate(workflowId)).toEqual(gate);
      await evaluations.setGate(workflowId, { ...gate, maxDrop: { exact: 0.01 } });
      expect(await evaluations.getGate(workflowId)).toMatchObject({ maxDrop: { exact: 0.01 } });
      await evaluations.setGate(workflowId, null);
      expect(await evaluations.getGate(workflowId)).toBeNull();
    });
  });
}
